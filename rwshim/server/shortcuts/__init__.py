"""Answers a session sends from kept bytes instead of running the messages again (issue 16).

- ``replies.py``: ``ReplyCache``, the server's constant statements' answers (Query, Parse,
  Execute), shared by its sessions;
- ``exchanges.py``: ``Exchanges``, one session's extended-protocol exchanges recorded whole
  from their bytes;
- ``kept.py``: ``Shortcuts``, the object a session calls to answer from both, and to keep a
  catalog result's encoding.

When a kept answer stops holding: a constant's answer never changes (only constants whose
every column renders the same under every setting are kept, errors never are); a recorded
exchange holds while the statement and portal objects it left (and, for a Query, the cache
entry it read) are still the very ones in place, under the same transaction status and with
the statement log off; a kept encoding holds while the read path hands out the very same
``KeptRows`` object and the session's encoder (columns, formats, time zone) is the same one.
"""
