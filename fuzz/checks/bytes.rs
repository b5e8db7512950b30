//! Reading the fuzzer's bytes as values, biased towards those that break numeric code.

use calibrank::timestamp::Timestamp;

/// A reader of fuzzer bytes. Past the end every read returns zeros, and zero always
/// decodes to the most ordinary choice (`false`, length 0, the default, 0.0), so short
/// inputs are ordinary inputs.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, pos: 0 }
    }

    pub(crate) fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos = self.pos.saturating_add(1);
        b
    }

    pub(crate) fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }

    pub(crate) fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }

    pub(crate) fn u64(&mut self) -> u64 {
        u64::from(self.u32()) | (u64::from(self.u32()) << 32)
    }

    pub(crate) fn bool(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    /// A number below `n` (`n` <= 256).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            usize::from(self.byte()) % n
        }
    }

    pub(crate) fn pick<T: Clone>(&mut self, options: &[T]) -> T {
        let i = self.below(options.len());
        options[i].clone()
    }

    /// A float in [0, 1].
    pub(crate) fn unit(&mut self) -> f64 {
        f64::from(self.u16()) / 65535.0
    }

    /// Any float, biased towards the ones that break numeric code.
    pub(crate) fn f64(&mut self) -> f64 {
        match self.byte() % 32 {
            0..=11 => self.unit(),
            12 => f64::NAN,
            13 => f64::INFINITY,
            14 => f64::NEG_INFINITY,
            15 => -0.0,
            16 => f64::from_bits(1),
            17 => f64::from_bits(self.u64() & 0x000f_ffff_ffff_ffff),
            18 => f64::MIN_POSITIVE,
            19 => f64::MAX,
            20 => f64::MIN,
            21 => f64::EPSILON,
            22 => f64::from_bits(self.u64()),
            23 => -self.unit(),
            24 => f64::from(self.byte() as i8),
            25 => f64::from(self.u32()),
            26 => 1e300 * self.unit(),
            27 => 1e-300 * self.unit(),
            28 => 1.0 + f64::EPSILON * f64::from(self.byte()),
            29 => -f64::from(self.u32()) * 1e3,
            30 => f64::from(self.u16()) / 1000.0,
            _ => 1.0,
        }
    }

    /// `typical` most of the time, any float otherwise.
    pub(crate) fn f64_or(&mut self, typical: f64) -> f64 {
        if self.bool() {
            self.f64()
        } else {
            typical
        }
    }

    /// A count, biased towards the boundaries and the huge.
    pub(crate) fn count_u32(&mut self) -> u32 {
        match self.byte() % 16 {
            0..=9 => u32::from(self.byte() % 12),
            10 => 0,
            11 => u32::MAX,
            12 => u32::MAX - 1,
            13 => 1 << 31,
            14 => u32::from(self.u16()),
            _ => self.u32(),
        }
    }

    pub(crate) fn count_usize(&mut self) -> usize {
        match self.byte() % 16 {
            0..=9 => usize::from(self.byte() % 12),
            10 => 0,
            11 => usize::MAX,
            12 => usize::MAX / 2 + 1,
            13 => u32::MAX as usize + 1,
            14 => usize::from(self.u16()),
            _ => self.u64() as usize,
        }
    }

    /// Up to `max` raw bytes as (lossy) UTF-8.
    pub(crate) fn raw_text(&mut self, max: usize) -> String {
        let n = self.below(max.min(255) + 1);
        let bytes: Vec<u8> = (0..n).map(|_| self.byte()).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// An id: mostly from a small alphabet (so lists overlap), sometimes odd or over-long.
    pub(crate) fn id(&mut self) -> String {
        match self.byte() % 16 {
            0..=10 => format!("d{}", self.byte() % 12),
            11 => self.raw_text(12),
            12 => "x".repeat(1025 + usize::from(self.byte())),
            13 => self
                .pick(&["", " ", "\0", "İ", "ß", "日本", "a b", "\u{202e}rtl", "💥"])
                .to_string(),
            14 => format!("d{}", self.u32()),
            _ => format!("D{}", self.byte() % 4),
        }
    }

    /// A word of text for names, summaries and queries.
    pub(crate) fn word(&mut self) -> String {
        match self.byte() % 8 {
            0..=5 => self
                .pick(&[
                    "auth",
                    "Authentication",
                    "configure",
                    "the",
                    "API",
                    "oauthToken",
                    "XMLHttpRequest",
                    "a",
                    "",
                    " ",
                    "İstanbul",
                    "straße",
                    "日本語",
                    "getUserId",
                    "HTTPServer2Go",
                    "ǅ",
                    "ΣΑΣ",
                ])
                .to_string(),
            6 => self.raw_text(24),
            _ => "word ".repeat(usize::from(self.byte())),
        }
    }

    pub(crate) fn text(&mut self) -> String {
        let n = self.below(5);
        (0..n).map(|_| self.word()).collect::<Vec<_>>().join(" ")
    }

    pub(crate) fn timestamp(&mut self) -> Timestamp {
        match self.byte() % 8 {
            0..=2 => Timestamp::Millis(1.7e12 + f64::from(self.u32()) * 1000.0),
            3 => Timestamp::Millis(self.f64()),
            4 | 5 => Timestamp::Iso(
                self.pick(&[
                    "2026-11-18T09:00:00Z",
                    "2024-02-29",
                    "2023-02-29",
                    "2026-01-01T00:00:00.123+14:00",
                    "0000-01-01",
                    "9999-12-31T23:59:59.999-23:59",
                    "2026-13-01",
                    "2026-1-1",
                    "2026-11-18 09:00",
                    "2026-11-18T24:00:00Z",
                    "2026-11-18T09:00:00.1234567890123456789Z",
                    "",
                ])
                .to_string(),
            ),
            _ => Timestamp::Iso(self.raw_text(40)),
        }
    }

    pub(crate) fn rest(&mut self) -> &'a [u8] {
        let start = self.pos.min(self.data.len());
        self.pos = self.data.len();
        &self.data[start..]
    }
}
