"""rustrand (rand 0.9's StdRng and sampling, as RisingWave's datagen uses them) against the
value-stability vectors of rand's own tests (rust-random/rand tag 0.9.5) and the values
RisingWave's datagen reader test asserts (src/connector/src/source/datagen/source/reader.rs
test_generator at 448c657)."""

from __future__ import annotations

from rwshim.dataplane.sources import datagen, rustrand

_M64 = (1 << 64) - 1
_INC = 11634580027462260723


class Pcg32:
    """rand_pcg's Lcg64Xsh32 (rand's tests draw from ``Pcg32::new(seed, INC)``, src/lib.rs
    mod test), to run rand's value-stability vectors through rustrand's samplers."""

    def __init__(self, state: int, stream: int) -> None:
        self.inc = ((stream << 1) | 1) & _M64
        self.state = (state + self.inc) & _M64
        self._step()

    def _step(self) -> None:
        self.state = (self.state * 6364136223846793005 + self.inc) & _M64

    def next_u32(self) -> int:
        st = self.state
        self._step()
        rot = st >> 59
        xsh = (((st >> 18) ^ st) >> 27) & 0xFFFFFFFF
        return ((xsh >> rot) | (xsh << ((32 - rot) & 31))) & 0xFFFFFFFF

    def next_u64(self) -> int:
        lo = self.next_u32()
        return lo | (self.next_u32() << 32)


def test_chacha20_ietf_vectors() -> None:
    """rand_chacha/src/chacha.rs test_chacha_true_values_a: the same block function with 20
    rounds, all-zero key: the first words of blocks 0 and 1."""
    rng = rustrand.ChaChaRng(bytes(32), 20)
    words = [rng.next_u32() for _ in range(32)]
    assert words[:4] == [0xADE0B876, 0x903DF1A0, 0xE56A5D40, 0x28BD8653]
    assert words[12:16] == [0xF4B8436A, 0x1CA11815, 0x69B687C3, 0x8665EEB2]
    assert words[16:18] == [0xBEE7079F, 0x7A385155]
    assert words[30:32] == [0x1F0AE1AC, 0x6F4D794B]


def test_stdrng_value_stability() -> None:
    """src/rngs/std.rs test_stdrng_construction: ChaCha12, next_u64, from_rng (fill_bytes)."""
    seed = bytes([1, 0, 0, 0, 23, 0, 0, 0, 200, 1, 0, 0, 210, 30, 0, 0] + [0] * 16)
    rng0 = rustrand.ChaChaRng(seed, 12)
    assert rng0.next_u64() == 10719222850664546238
    rng1 = rustrand.ChaChaRng(rng0.fill_bytes(32), 12)
    assert rng1.next_u64() == 14064965282130556830


def test_uniform_int_value_stability() -> None:
    """src/distr/uniform_int.rs value_stability: sample_single_inclusive's first three."""
    cases = [
        (2, 1352, 16, [43, 361, 1325]),
        (-313853, 13513, 32, [-303803, -226673, 6912]),
        (131521, 6542165, 64, [1838724, 5384489, 4893692]),
    ]
    for low, high, bits, expected in cases:
        rng = Pcg32(897, _INC)
        got = [rustrand.random_int_inclusive(rng, low, high, bits) for _ in range(3)]
        assert got == expected


def test_uniform_float_value_stability() -> None:
    """src/distr/uniform.rs value_stability (``Uniform::new``: scale = high - low)."""
    rng = Pcg32(897, _INC)
    got = [rustrand.sample_float(rng, 0.0, rustrand.f32(1e-2), True) for _ in range(6)]
    expected = [0.0003070104, 0.0026630748, 0.00979833, 0.008194133, 0.00398172, 0.007428536]
    assert got == [rustrand.f32(x) for x in expected]
    rng = Pcg32(897, _INC)
    got = [rustrand.sample_float(rng, -1e10, 2e10, False) for _ in range(6)]
    assert got == [
        -4673848682.871551, 6388267422.932352, 4857075081.198343,
        1173375212.1808167, 1917642852.109581, 2365076174.3153973,
    ]  # fmt: skip


def test_alphanumeric_value_stability() -> None:
    """src/distr/other.rs value_stability: Alphanumeric from Pcg32(807)."""
    rng = Pcg32(807, _INC)
    assert rustrand.alphanumeric(rng, 5).encode() == bytes([104, 109, 101, 51, 77])


def test_float_inclusive_scale_reaches_high_only() -> None:
    """new_inclusive: the scale is lowered until the largest sample is at most ``high``."""
    scale = rustrand.float_scale_inclusive(1.0, 1000.0, True)
    top = rustrand.f32(rustrand.f32(scale * rustrand.f32(1 - 2.0**-23)) + 1.0)
    assert top <= 1000.0


def test_risingwave_reader_test_generator_values() -> None:
    """reader.rs test_generator: split 0 of 1, the first row is (533, 533.14886, 1, (1533))."""
    cols = [
        ("random_int", "integer", True),
        ("random_float", "real", True),
        ("sequence_int", "integer", True),
        ("struct", "struct<random_int integer>", True),
    ]
    opts = {
        "fields.random_int.min": "1", "fields.random_int.max": "1000",
        "fields.random_int.seed": "12345",
        "fields.random_float.min": "1", "fields.random_float.max": "1000",
        "fields.random_float.seed": "12345",
        "fields.sequence_int.kind": "sequence", "fields.sequence_int.start": "1",
        "fields.sequence_int.end": "1000",
        "fields.struct.random_int.min": "1001", "fields.struct.random_int.max": "2000",
        "fields.struct.random_int.seed": "12345",
    }  # fmt: skip
    first = datagen.datagen(cols, opts, lambda: 0).due(0)[0]
    assert first == {
        "random_int": 533,
        "random_float": rustrand.f32(533.14886),
        "sequence_int": 1,
        "struct": (1533,),
    }


def test_seed_from_u64_reseeds_per_offset() -> None:
    """numeric.rs: each value is drawn from a fresh ``StdRng::seed_from_u64(offset ^ seed)``,
    so the value at an offset does not depend on what was drawn before."""
    a = rustrand.random_int_inclusive(rustrand.std_rng(5 ^ 7), 0, 32767, 32)
    rows = datagen.datagen([("r", "integer", True)], {"fields.r.seed": "7"}, lambda: 0).due(0)
    assert rows[5]["r"] == a


def test_list_elements_share_the_offset_and_sequences_advance() -> None:
    """mod.rs:258-272: a list's elements are drawn with the row's offset (random elements
    repeat); a sequence element advances at each element (numeric.rs:139-157)."""
    cols = [("r", "integer[]", True), ("s", "integer[]", True)]
    opts = {"fields.r.length": "3", "fields.s.length": "2", "fields.s._.kind": "sequence"}
    rows = datagen.datagen(cols, opts, lambda: 0).due(0)
    assert [len(set(r["r"])) for r in rows] == [1] * 10
    assert [r["s"] for r in rows[:2]] == [[0, 1], [2, 3]]


def test_parse_float_is_rusts() -> None:
    """str::parse::<f32>: Rust's grammar, and the f32 nearest the decimal itself (not the
    f32 nearest the f64 nearest it): 1 + 2^-24 + 2^-80 rounds up in f32, though its f64 is
    the tie 1 + 2^-24, which rounds to even (down)."""
    text = "1.00000005960464477539062582718061255302767487140869206996285356581211090087890625"
    assert rustrand.parse_float(text, True) == 1 + 2.0**-23
    assert rustrand.f32(float(text)) == 1.0
    assert rustrand.parse_float("1e40", True) == float("inf")
    assert rustrand.parse_float("+.5e3", False) == 500.0
    for bad in ("1_0", " 1", "", "1e", "0x10"):
        try:
            rustrand.parse_float(bad, True)
        except ValueError:
            continue
        raise AssertionError(bad)


def test_bad_bounds_fail_the_reader() -> None:
    """numeric.rs's ``parse::<T>()?`` errors (Rust's texts) and a non-finite range
    (random_range's unwrap panics): the split reader is not built."""
    cases = [
        ({"fields.r.min": "x"}, "integer", "invalid digit found in string"),
        ({"fields.r.max": "99999999999"}, "integer", "number too large to fit in target type"),
        ({"fields.r.min": "1.5x"}, "real", "invalid float literal"),
        ({"fields.r.max": "inf"}, "double precision", "NonFinite"),
    ]
    for opts, rw_type, text in cases:
        try:
            datagen.datagen([("r", rw_type, True)], opts, lambda: 0)
        except datagen.GeneratorError as e:
            assert text in str(e)
            continue
        raise AssertionError(opts)


def test_timestamp_bases() -> None:
    """timestamp.rs:33-70: without ``basetime`` the base is the reader's start unless
    ``max_past_mode`` is ``relative`` (then each row's time); a timestamp's ``basetime`` is its
    wall time in its own offset (``naive_local``), a timestamptz's the instant."""
    clock = [1_700_000_000_000]
    cols = [("t", "timestamp without time zone", True)]
    fixed = datagen.datagen(cols, {"fields.t.max_past": "0s"}, lambda: clock[0], 1_600_000_000_000)
    relative = datagen.datagen(
        cols, {"fields.t.max_past": "0s", "fields.t.max_past_mode": "RELATIVE"}, lambda: clock[0]
    )
    assert fixed.splits[0].rows(1) == [{"t": "2020-09-13 12:26:40"}]
    assert relative.splits[0].rows(1) == [{"t": "2023-11-14 22:13:20"}]
    both = [("t", "timestamp without time zone", True), ("z", "timestamp with time zone", True)]
    opts = {
        "fields.t.basetime": "2024-01-01T08:00:00+08:00", "fields.t.max_past": "1h",
        "fields.z.basetime": "2024-01-01T08:00:00+08:00", "fields.z.max_past": "1h",
        "fields.t.seed": "3", "fields.z.seed": "3",
    }  # fmt: skip
    row = datagen.datagen(both, opts, lambda: 0).due(0)[0]
    # the same draw (seed 3, offset 0) back from 08:00 local, and from 00:00 UTC
    assert row == {"t": "2024-01-01 07:54:17.247000", "z": "2023-12-31 23:54:17.247000+00:00"}
