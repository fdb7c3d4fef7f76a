"""The parts of Rust's ``rand`` 0.9 that RisingWave's datagen draws its random values from:
``StdRng`` (ChaCha with 12 rounds), its ``seed_from_u64``, ``random_range`` over an inclusive
range of integers and floats, and the ``Alphanumeric`` distribution.  Pure and I/O-free, so
datagen.py reproduces RisingWave's values bit for bit.

RisingWave at 448c657 uses rand 0.9.5 (Cargo.lock; ``rand = { version = "0.9" }`` in the
workspace Cargo.toml, no ``unbiased`` feature anywhere) with rand_chacha 0.9.0 and rand_core
0.9.0.  rand 0.9.5's sources (rust-random/rand, tag 0.9.5), mirrored here:

- ``src/rngs/std.rs``: ``StdRng`` is ``rand_chacha::ChaCha12Rng`` with a 32-byte seed.
- ``rand_core/src/lib.rs:467-496`` (``SeedableRng::seed_from_u64``, not overridden by StdRng
  or ChaCha12Rng): eight PCG32 outputs, little-endian, make the 32-byte seed.
- ``rand_chacha/src/chacha.rs:99-104``, ``guts.rs:45-130``: the key is the seed, the 64-bit
  block counter (state words 12-13) and the stream (words 14-15) start at 0; 12 rounds;
  the words of consecutive blocks in order.
- ``rand_core/src/block.rs:197-219``: ``next_u32`` takes the next word, ``next_u64`` the next
  two (low word first) -- across the 64-word buffer's end too, so the output is one stream of
  words.
- ``src/distr/uniform_int.rs:183-218`` (``sample_single_inclusive`` without ``unbiased``:
  Canon's method: one widening multiply, a second draw only in the bias zone; i16 and i32
  draw u32, i64 draws u64; a full range draws ``random::<T>()``), ``integer.rs`` (``i16`` is
  ``next_u32`` truncated).
- ``src/distr/uniform.rs:358-369`` (the trait's default ``sample_single_inclusive``:
  ``new_inclusive`` then ``sample``: RisingWave's F32/F64 sampler, ``UniformOrdered`` in
  ``src/common/src/types/ordered_float.rs:895-930``, keeps that default),
  ``uniform_float.rs:67-150`` (``new_inclusive``'s scale ``(high - low) / (1 - EPSILON)``
  lowered ulp by ulp until ``scale * max_rand + low <= high``; ``sample``: the top 23 / 52
  bits as a float in [1, 2), minus 1, times scale, plus low).
- ``src/distr/other.rs:137-154`` (``Alphanumeric``: ``next_u32 >> 26``, rejected when >= 62).
"""

from __future__ import annotations

import math
import re
import struct
from fractions import Fraction
from typing import Protocol

_M32 = 0xFFFFFFFF
_M64 = 0xFFFFFFFFFFFFFFFF
_SIGMA = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)  # "expand 32-byte k"
_ALNUM = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


class Rng(Protocol):
    """``RngCore``'s word draws (the samplers below take any, as rand's do)."""

    def next_u32(self) -> int: ...

    def next_u64(self) -> int: ...


def _rotl(x: int, n: int) -> int:
    return ((x << n) | (x >> (32 - n))) & _M32


def chacha_block(key: tuple[int, ...], counter: int, stream: int, rounds: int) -> list[int]:
    """One ChaCha block (16 words) for a key of 8 words, a 64-bit block counter and a 64-bit
    stream id (rand_chacha's layout: counter in words 12-13, stream in 14-15)."""
    init = [
        *_SIGMA, *key,
        counter & _M32, (counter >> 32) & _M32, stream & _M32, (stream >> 32) & _M32,
    ]  # fmt: skip
    x = list(init)

    def quarter(a: int, b: int, c: int, d: int) -> None:
        x[a] = (x[a] + x[b]) & _M32
        x[d] = _rotl(x[d] ^ x[a], 16)
        x[c] = (x[c] + x[d]) & _M32
        x[b] = _rotl(x[b] ^ x[c], 12)
        x[a] = (x[a] + x[b]) & _M32
        x[d] = _rotl(x[d] ^ x[a], 8)
        x[c] = (x[c] + x[d]) & _M32
        x[b] = _rotl(x[b] ^ x[c], 7)

    for _ in range(rounds // 2):
        quarter(0, 4, 8, 12)
        quarter(1, 5, 9, 13)
        quarter(2, 6, 10, 14)
        quarter(3, 7, 11, 15)
        quarter(0, 5, 10, 15)
        quarter(1, 6, 11, 12)
        quarter(2, 7, 8, 13)
        quarter(3, 4, 9, 14)
    return [(a + b) & _M32 for a, b in zip(x, init, strict=True)]


class ChaChaRng:
    """rand_chacha's ChaCha{8,12,20}Rng (``rounds``) as a stream of 32-bit words; blocks are
    computed when first needed (the output is the same as refilling 4 blocks at a time)."""

    __slots__ = ("_block", "_index", "_key", "_rounds", "_words")

    def __init__(self, seed: bytes, rounds: int = 12) -> None:
        if len(seed) != 32:
            raise ValueError("a ChaCha seed has 32 bytes")
        self._key = struct.unpack("<8I", seed)
        self._rounds = rounds
        self._words: list[int] = []
        self._index = 0
        self._block = 0

    def next_u32(self) -> int:
        if self._index >= len(self._words):
            self._words = chacha_block(self._key, self._block, 0, self._rounds)
            self._block += 1
            self._index = 0
        w = self._words[self._index]
        self._index += 1
        return w

    def next_u64(self) -> int:
        lo = self.next_u32()
        return lo | (self.next_u32() << 32)

    def fill_bytes(self, n: int) -> bytes:
        """``fill_bytes`` of ``n`` bytes: whole words, little-endian (a partly used last word
        is consumed, rand_core's fill_via_u32_chunks)."""
        out = b"".join(struct.pack("<I", self.next_u32()) for _ in range((n + 3) // 4))
        return out[:n]


def _pcg32(state: int) -> tuple[int, int]:
    state = (state * 6364136223846793005 + 11634580027462260723) & _M64
    xorshifted = (((state >> 18) ^ state) >> 27) & _M32
    rot = state >> 59
    return state, ((xorshifted >> rot) | (xorshifted << ((32 - rot) & 31))) & _M32


def seed_from_u64(state: int) -> bytes:
    """rand_core's default ``SeedableRng::seed_from_u64`` for a 32-byte seed."""
    state &= _M64
    out = bytearray()
    for _ in range(8):
        state, x = _pcg32(state)
        out += struct.pack("<I", x)
    return bytes(out)


def std_rng(seed: int) -> ChaChaRng:
    """``StdRng::seed_from_u64(seed)``."""
    return ChaChaRng(seed_from_u64(seed), 12)


# --- random_range(low..=high) for integers ----------------------------------------------

_INT_BITS = {16: 32, 32: 32, 64: 64}  # the type's bits -> the bits it samples (uniform_int.rs)


def _wrap(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def random_int_inclusive(rng: Rng, low: int, high: int, bits: int) -> int:
    """``rng.random_range(low..=high)`` for a signed integer of ``bits`` bits (16, 32, 64)."""
    if not low <= high:
        raise ValueError("cannot sample empty range")
    sample_bits = _INT_BITS[bits]
    mask = (1 << sample_bits) - 1

    def draw() -> int:
        return rng.next_u32() if sample_bits == 32 else rng.next_u64()

    # (high - low + 1) wrapped to the unsigned type, widened to the sample type
    rng_range = (high - low + 1) & ((1 << bits) - 1)
    if rng_range == 0:
        return _wrap(draw(), bits)  # the full range: random::<T>()
    wide = draw() * rng_range
    result, lo_order = wide >> sample_bits, wide & mask
    if lo_order > ((-rng_range) & mask):
        new_hi = (draw() * rng_range) >> sample_bits
        if lo_order + new_hi > mask:
            result += 1
    return _wrap(low + result, bits)


# --- random_range(low..=high) for floats ------------------------------------------------


def f32(x: float) -> float:
    """``x`` rounded to the nearest f32 (an f32 operation on f32 operands, computed in f64
    and rounded once, is the correctly rounded f32 result)."""
    try:
        return float(struct.unpack("<f", struct.pack("<f", x))[0])
    except OverflowError:  # rounds past the largest f32
        return math.copysign(math.inf, x)


_RUST_FLOAT = re.compile(
    r"[+-]?(?:inf|infinity|nan|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)", re.IGNORECASE
)


def parse_float(text: str, single: bool) -> float:
    """Rust's ``str::parse::<f32>`` / ``<f64>``: its grammar (no spaces, no ``_``), the
    nearest value to the decimal (an f32 rounded once from the exact number, not through
    f64); ValueError for what Rust refuses."""
    if not _RUST_FLOAT.fullmatch(text):
        raise ValueError(text)
    v = float(text)
    if not single:
        return v
    near = f32(v)
    if near == v or math.isinf(near) or math.isnan(near):
        return near
    # f64 rounding then f32 rounding can differ from f32 rounding of the exact decimal:
    # choose between the f32 below and above the exact value
    exact = Fraction(text)
    lo = near if Fraction(near) <= exact else _f32_next(near, -1)
    hi = _f32_next(lo, 1)
    if math.isinf(hi):
        return lo
    dlo, dhi = exact - Fraction(lo), Fraction(hi) - exact
    if dlo != dhi:
        return lo if dlo < dhi else hi
    return lo if _f32_bits(lo) % 2 == 0 else hi  # a tie: the even one


def _f32_next(x: float, direction: int) -> float:
    """The next f32 above (1) or below (-1) ``x``."""
    bits = _f32_bits(x)
    if x == 0:
        return _f32_from_bits(1) * direction
    up = (direction > 0) == (x > 0)
    return _f32_from_bits(bits + 1 if up else bits - 1)


def _f32_bits(x: float) -> int:
    return int(struct.unpack("<I", struct.pack("<f", x))[0])


def _f32_from_bits(b: int) -> float:
    return float(struct.unpack("<f", struct.pack("<I", b & _M32))[0])


def _f64_bits(x: float) -> int:
    return int(struct.unpack("<Q", struct.pack("<d", x))[0])


def _f64_from_bits(b: int) -> float:
    return float(struct.unpack("<d", struct.pack("<Q", b & _M64))[0])


def float_scale_inclusive(low: float, high: float, single: bool) -> float:
    """``UniformFloat::new_inclusive``'s scale (``single``: f32)."""
    if single:
        max_rand = f32(1.0 - 2.0**-23)
        scale = f32(f32(high - low) / max_rand)
        while f32(f32(scale * max_rand) + low) > high:
            scale = _f32_from_bits(_f32_bits(scale) - 1)
        return scale
    max_rand = 1.0 - 2.0**-52
    scale = (high - low) / max_rand
    while scale * max_rand + low > high:
        scale = _f64_from_bits(_f64_bits(scale) - 1)
    return scale


def sample_float(rng: Rng, low: float, scale: float, single: bool) -> float:
    """``UniformFloat::sample``: the top 23 (f32) or 52 (f64) bits as a float in [1, 2),
    minus 1, times ``scale``, plus ``low``."""
    if single:
        value1_2 = _f32_from_bits((rng.next_u32() >> 9) | (127 << 23))
        return f32(f32((value1_2 - 1.0) * scale) + low)
    value1_2 = _f64_from_bits((rng.next_u64() >> 12) | (1023 << 52))
    return (value1_2 - 1.0) * scale + low


def random_float_inclusive(rng: Rng, low: float, high: float, single: bool) -> float:
    """``rng.random_range(low..=high)`` for RisingWave's F32 (``single``) or F64."""
    if not low <= high:
        raise ValueError("cannot sample empty range")
    return sample_float(rng, low, float_scale_inclusive(low, high, single), single)


def alphanumeric(rng: Rng, length: int) -> str:
    """``rng.sample_iter(&Alphanumeric).take(length)`` as a string."""
    out = bytearray()
    while len(out) < length:
        var = rng.next_u32() >> 26
        if var < 62:
            out.append(_ALNUM[var])
    return out.decode("ascii")
