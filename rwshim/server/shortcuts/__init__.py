"""Answers sent again from kept bytes (issue 16): a constant statement's reply
(``replies``), a whole extended-protocol exchange (``exchanges``), and what a session answers
from them (``kept``).  One invalidation rule holds for all of them: a kept answer is used only
while what produced it is provably the same (the statement text and the session's settings,
the catalog result object handed out again, the same recorded bytes with the same statement,
portal and transaction state); anything else takes the full path.  RisingWave has no
counterpart: its answers are always computed."""
