//! The shortest decimal digits of a double: the fewest significant digits that read back
//! as the same double, the closest such digits to it when several are as short, the even
//! last digit when two are equally close. These are the digits `ryu` gives, and those
//! ECMAScript's `Number.prototype.toString` gives; error messages ([`crate::error::num`])
//! and the wasm modules' JSON writer print them.
//!
//! They are found by exact big-integer arithmetic (Steele and White's free-format
//! algorithm as Burger and Dybvig state it): slow next to `ryu` (tens of microseconds for
//! the extreme exponents), small in code and without tables, which is what a message or
//! a configuration's JSON needs in the wasm core module. A property test compares the
//! digits with `ryu`'s on random doubles and on every binary exponent.

/// A positive double's shortest digits: the value is `0.d1 d2 ... dn × 10^point`, that is,
/// the decimal point `point` digits from the left of the first digit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Digits {
    /// The digits, `0..=9` each, the first one not 0 (the first `len` are used).
    pub digits: [u8; 17],
    /// How many digits (1 to 17).
    pub len: usize,
    /// Where the decimal point stands, counted from the left of the first digit
    /// (`1` for `1.5`, `0` for `0.15`, `-1` for `0.015`, `3` for `150`).
    pub point: i32,
}

impl Digits {
    /// The digits in use.
    pub fn used(&self) -> &[u8] {
        self.digits.get(..self.len).unwrap_or(&self.digits)
    }
}

/// How [`push`] lays out a number's shortest digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// As ECMAScript's `Number.prototype.toString()` (`String(v)`) prints it, for error
    /// messages: plain decimal when `1e-6 <= |v| < 1e21` (`1500`, `0.000001`,
    /// `123456789012345680000`), an exponent otherwise (`1e-7`, `1.5e+300`, `-5e-324`);
    /// `0` for both zeros, as JavaScript prints `-0`.
    Message,
    /// As serde_json writes it, for the wasm modules' JSON: `1500.0`, `12.5`, `0.00125`,
    /// `-0.0`, and an exponent outside `1e-5 <= |v| < 1e16`: `1e+16`, `1.25e-7`.
    Json,
}

/// Appends finite `v` in its shortest digits, laid out as `layout` says. Not finite:
/// nothing is appended.
#[inline(never)]
pub fn push(out: &mut String, v: f64, layout: Layout) {
    if !v.is_finite() {
        return;
    }
    let json = layout == Layout::Json;
    // Written here, then appended at once (each `String::push` inlines a capacity check of
    // its own); at most 25 bytes: a sign, `0.00000` and 17 digits.
    let mut buf = [b'0'; 32];
    let mut n = 0;
    let mut put = |b: u8| {
        if let Some(slot) = buf.get_mut(n) {
            *slot = b;
            n += 1;
        }
    };
    if v < 0.0 || (json && v.is_sign_negative()) {
        put(b'-');
    }
    if let Some(d) = shortest(v) {
        let digits = d.used();
        let (len, point) = (d.len as i32, d.point);
        // Position i holds digit i (0 beyond the digits, and before the first), whose
        // place value is 10^(point - 1 - i): the units at position point - 1, the decimal
        // point before position `point` (in the exponent form, before position 1). Both
        // layouts write the exponent form alike (`1e+16`, `1.25e-7`); they differ in
        // where it starts.
        let (low, high) = if json { (-5, 16) } else { (-6, 21) };
        let exponent = !(low < point && point <= high);
        let (first, last, dot) = if exponent {
            (0, len, 1)
        } else {
            // From the units (or the first digit), to the last digit (or the units, and a
            // `.0` after them in JSON).
            ((point - 1).min(0), len.max(point + i32::from(json)), point)
        };
        for i in first..last {
            if i == dot {
                put(b'.');
            }
            let digit = usize::try_from(i).ok().and_then(|i| digits.get(i)).copied();
            put(b'0' + digit.unwrap_or(0));
        }
        if exponent {
            let e = point - 1;
            put(b'e');
            put(if e < 0 { b'-' } else { b'+' });
            let e = e.unsigned_abs();
            if e >= 100 {
                put(b'0' + (e / 100) as u8);
            }
            if e >= 10 {
                put(b'0' + (e / 10 % 10) as u8);
            }
            put(b'0' + (e % 10) as u8);
        }
    } else {
        put(b'0');
        if json {
            put(b'.');
            put(b'0');
        }
    }
    out.push_str(std::str::from_utf8(buf.get(..n).unwrap_or_default()).unwrap_or_default());
}

/// The shortest digits of `|v|` (`None` for zero, an infinity or NaN).
pub fn shortest(v: f64) -> Option<Digits> {
    if !v.is_finite() || v == 0.0 {
        return None;
    }
    let bits = v.to_bits();
    let biased = (bits >> 52) & 0x7ff;
    let fraction = bits & ((1u64 << 52) - 1);
    // v = f × 2^e.
    let (f, e) = if biased == 0 {
        (fraction, -1074i32)
    } else {
        (fraction | 1u64 << 52, biased as i32 - 1075)
    };
    // An even mantissa reads back from its interval's ends (round half to even).
    let even = f % 2 == 0;
    // A power of two above the smallest normal exponent has half the gap below it.
    let lower_closer = u32::from(fraction == 0 && biased > 1);
    // v = r / s, the interval's half-gaps above and below m_plus / s and m_minus / s:
    // r = 2f (4f when the gap below is half), s = 2 (4), in units of 2^e, the gaps 1
    // (2 above) unit; for e < 0 the powers of two move to s.
    let (up, down) = (e.max(0) as u32, (-e).max(0) as u32);
    let mut r = Big::from(f);
    r.shl(1 + lower_closer + up);
    let mut s = Big::from(1);
    s.shl(1 + lower_closer + down);
    let mut m_plus = Big::from(1);
    m_plus.shl(lower_closer + up);
    let mut m_minus = Big::from(1);
    m_minus.shl(up);
    // The decimal exponent: the smallest k with (r + m_plus) / s below 10^k (or at it,
    // when the upper end reads back), from an estimate that is never above it
    // (log10(2) ≈ 78913 / 2^18, from below).
    let top_bit = 63 - f.leading_zeros() as i32 + e;
    let mut k = (top_bit * 78913) >> 18;
    let scale = k.unsigned_abs();
    for _ in 0..scale {
        if k >= 0 {
            s.mul_small(10, 0);
        } else {
            r.mul_small(10, 0);
            m_plus.mul_small(10, 0);
            m_minus.mul_small(10, 0);
        }
    }
    // Whether r + m_plus reaches s (the upper end of the interval reads back when even).
    let high = |r: &Big, m_plus: &Big, s: &Big| {
        let mut top = r.clone();
        top.add(m_plus, false);
        let c = top.cmp(s);
        c.is_gt() || (even && c.is_eq())
    };
    while high(&r, &m_plus, &s) {
        s.mul_small(10, 0);
        k += 1;
    }
    // Now v / 10^k is in [0.1, 1): its digits, one by one.
    let mut out = Digits {
        digits: [0; 17],
        len: 0,
        point: k,
    };
    for slot in out.digits.iter_mut() {
        r.mul_small(10, 0);
        m_plus.mul_small(10, 0);
        m_minus.mul_small(10, 0);
        let mut d = 0u8;
        while r.cmp(&s).is_ge() {
            r.add(&s, true);
            d += 1;
        }
        let c = r.cmp(&m_minus);
        let low = c.is_lt() || (even && c.is_eq());
        let up = high(&r, &m_plus, &s);
        out.len += 1;
        *slot = d;
        if !low && !up {
            continue;
        }
        // One end or both read back: the closer digit, the even one on a tie. (`d + 1`
        // is at most 9: `k` makes (r + m_plus) / s stay below one in the digit's place;
        // and the last digit is never 0, which the step before would have ended on.)
        let mut twice = r.clone();
        twice.shl(1);
        let c = twice.cmp(&s);
        if !low || (up && (c.is_gt() || (c.is_eq() && d % 2 == 1))) {
            *slot = d + 1;
        }
        break;
    }
    Some(out)
}

/// Limbs of a [`Big`]: 1,280 bits, above the largest value the digits need (a double's
/// mantissa times 2^1075 and 10^341).
const LIMBS: usize = 40;

/// A non-negative integer below 2^1280, 32-bit limbs, least significant first; limbs
/// from `len` on are zero. (Loops run to `len`, a number known only at run time: loops
/// over the whole array were unrolled into 4 KB of code.)
#[derive(Debug, Clone, PartialEq, Eq)]
struct Big {
    limbs: [u32; LIMBS],
    len: usize,
}

impl From<u64> for Big {
    fn from(v: u64) -> Self {
        let mut b = Big {
            limbs: [0; LIMBS],
            len: 2,
        };
        b.limbs[0] = v as u32;
        b.limbs[1] = (v >> 32) as u32;
        b
    }
}

impl Big {
    /// Times 2^n.
    #[inline(never)]
    fn shl(&mut self, n: u32) {
        for _ in 0..n / 32 {
            self.mul_small(1, 32);
        }
        self.mul_small(1, n % 32);
    }

    /// Times `m` and 2^`bits` (`m` and 2^`bits` both at most 2^32).
    #[inline(never)]
    fn mul_small(&mut self, m: u32, bits: u32) {
        let n = (self.len + 1).min(LIMBS);
        let mut carry = 0u64;
        for limb in self.limbs.iter_mut().take(n) {
            let p = ((u64::from(*limb) * u64::from(m)) << bits) + carry;
            *limb = p as u32;
            carry = p >> 32;
        }
        self.set_len(n);
    }

    /// `len` is `n`, or `n - 1` when that limb is zero: a product or a sum grows by a limb
    /// only for a carry into it, a difference keeps its operands' length. (It was `n`
    /// always: each step of the digits' loop multiplies three numbers by ten and
    /// subtracts up to nine times, and after a few digits every step worked on all 40
    /// limbs, about 10 µs a number in wasm.)
    fn set_len(&mut self, n: usize) {
        self.len = n - usize::from(self.limbs.get(n.wrapping_sub(1)) == Some(&0));
    }

    /// Plus `o` (`subtract`: minus `o`, for `o <= self`).
    #[inline(never)]
    fn add(&mut self, o: &Big, subtract: bool) {
        let n = (self.len.max(o.len) + 1).min(LIMBS);
        let mut carry = 0i64;
        for (limb, &b) in self.limbs.iter_mut().zip(o.limbs.iter()).take(n) {
            let t = i64::from(*limb)
                + carry
                + if subtract {
                    -i64::from(b)
                } else {
                    i64::from(b)
                };
            *limb = t as u32;
            carry = t >> 32;
        }
        self.set_len(n);
    }

    #[inline(never)]
    fn cmp(&self, o: &Big) -> std::cmp::Ordering {
        let n = self.len.max(o.len);
        for i in (0..n).rev() {
            let (a, b) = (self.limbs.get(i), o.limbs.get(i));
            if a != b {
                return a.cmp(&b);
            }
        }
        std::cmp::Ordering::Equal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ryu's digits and decimal point for `v` (positive, finite, not zero).
    fn ryu_digits(v: f64) -> (Vec<u8>, i32) {
        let mut buf = ryu::Buffer::new();
        let s = buf.format_finite(v);
        let (mant, exp) = match s.split_once('e') {
            Some((m, e)) => (m, e.parse::<i32>().unwrap()),
            None => (s, 0),
        };
        let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
        let all: Vec<u8> = int.bytes().chain(frac.bytes()).map(|b| b - b'0').collect();
        let mut point = int.len() as i32 + exp;
        let lead = all.iter().take_while(|&&d| d == 0).count();
        point -= lead as i32;
        let mut digits = all[lead..].to_vec();
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        (digits, point)
    }

    /// `v`'s digits are ryu's, and `v` and `-v` print as in JavaScript.
    fn check(v: f64) {
        let d = shortest(v).unwrap();
        assert_eq!(
            (d.used().to_vec(), d.point),
            ryu_digits(v),
            "{v:e} ({:#x})",
            v.to_bits()
        );
        assert_eq!(message(v), js_to_string(v));
        assert_eq!(message(-v), js_to_string(-v));
    }

    /// `v` as ECMAScript's Number::toString(v, 10) prints it (ECMA-262, 6.1.6.1.20),
    /// step by step from ryu's digits: `String(v)` in JavaScript.
    fn js_to_string(v: f64) -> String {
        if v.is_nan() {
            return "NaN".into();
        }
        if v == 0.0 {
            return "0".into();
        }
        if v < 0.0 {
            return format!("-{}", js_to_string(-v));
        }
        if v.is_infinite() {
            return "Infinity".into();
        }
        // k >= 1 digits s, 10^(k-1) <= s < 10^k, s × 10^(n-k) = v, k as small as possible.
        let (digits, n) = ryu_digits(v);
        let s: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
        let k = s.len() as i32;
        if k <= n && n <= 21 {
            return format!("{s}{}", "0".repeat((n - k) as usize));
        }
        if 0 < n && n <= 21 {
            let (int, frac) = s.split_at(n as usize);
            return format!("{int}.{frac}");
        }
        if -6 < n && n <= 0 {
            return format!("0.{}{s}", "0".repeat((-n) as usize));
        }
        let sign = if n - 1 > 0 { '+' } else { '-' };
        let e = (n - 1).abs();
        if k == 1 {
            return format!("{s}e{sign}{e}");
        }
        let (first, rest) = s.split_at(1);
        format!("{first}.{rest}e{sign}{e}")
    }

    fn message(v: f64) -> String {
        let mut out = String::new();
        push(&mut out, v, Layout::Message);
        out
    }

    /// `String(v)` as Node printed it.
    #[test]
    #[allow(clippy::excessive_precision)] // exact values of doubles, written out
    fn message_layout_as_node_prints() {
        for (v, node) in [
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123456789012345680000.0, "123456789012345680000"),
            (0.000001, "0.000001"),
            (1e-320, "1e-320"),
            (-1e300, "-1e+300"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (0.1, "0.1"),
            (100.0, "100"),
            (1.5, "1.5"),
            (0.0, "0"),
            (-0.0, "0"),
            (999999999999999900000.0, "999999999999999900000"),
            (0.0000012345, "0.0000012345"),
            (-0.000001, "-0.000001"),
            (-1.5e-7, "-1.5e-7"),
            (2.2250738585072014e-308, "2.2250738585072014e-308"),
            (767927684704018.25, "767927684704018.2"),
            (1e16, "10000000000000000"),
            (12345678.9, "12345678.9"),
            (1e-300, "1e-300"),
        ] {
            assert_eq!(message(v), node, "{v:e}");
            assert_eq!(js_to_string(v), node, "{v:e}");
        }
    }

    /// The limbs in use stay bounded: a product or a sum grows by one only for a carry
    /// into it, a difference keeps the longer operand's length. (Every step once grew
    /// `len` by one, and after a few digits each step worked on all 40 limbs.)
    #[test]
    fn lengths_stay_bounded() {
        let mut a = Big::from(1);
        for _ in 0..19 {
            a.mul_small(10, 0);
        }
        // 10^19 < 2^64: two limbs; one more ten carries into a third.
        assert_eq!(
            (
                a.len,
                a.limbs[..2] == [10u64.pow(19) as u32, (10u64.pow(19) >> 32) as u32]
            ),
            (2, true)
        );
        a.mul_small(10, 0);
        assert_eq!(a.len, 3);
        a.shl(64);
        assert_eq!(a.len, 5);
        let mut b = a.clone();
        b.add(&Big::from(1), true);
        assert_eq!(b.len, 5);
        // a - (a - 1): the longer operand's length, not one more.
        let mut one = a.clone();
        one.add(&b, true);
        assert_eq!(
            (one.len, one.cmp(&Big::from(1))),
            (5, std::cmp::Ordering::Equal)
        );
        let mut sum = a.clone();
        sum.add(&a, false);
        assert_eq!((sum.len, sum.cmp(&a)), (5, std::cmp::Ordering::Greater));
    }

    #[test]
    #[allow(clippy::excessive_precision)] // exact values of doubles, written out
    fn worked_examples() {
        let d = shortest(0.1).unwrap();
        assert_eq!((d.used(), d.point), (&[1u8][..], 0));
        let d = shortest(1.5).unwrap();
        assert_eq!((d.used(), d.point), (&[1u8, 5][..], 1));
        let d = shortest(150.0).unwrap();
        assert_eq!((d.used(), d.point), (&[1u8, 5][..], 3));
        let d = shortest(0.015).unwrap();
        assert_eq!((d.used(), d.point), (&[1u8, 5][..], -1));
        // Two shortest forms equally near: the even last digit (ryu's; `{}` takes .3).
        let d = shortest(767927684704018.25).unwrap();
        assert_eq!(d.used(), &[7, 6, 7, 9, 2, 7, 6, 8, 4, 7, 0, 4, 0, 1, 8, 2]);
        assert_eq!(shortest(0.0), None);
        assert_eq!(shortest(f64::NAN), None);
        assert_eq!(shortest(f64::INFINITY), None);
    }

    #[test]
    #[allow(clippy::excessive_precision)] // exact values of doubles, written out
    fn extremes_and_every_binary_exponent_as_ryu() {
        for v in [
            f64::MIN_POSITIVE,
            f64::MAX,
            5e-324,
            1e-323,
            2.2250738585072009e-308,
            1e23,
            9007199254740993.0,
            9007199254740991.0,
            0.3,
            2.0f64.powi(-1022) * 3.0,
            // Where the message layout switches to an exponent, and the doubles below.
            1e21,
            f64::from_bits(1e21f64.to_bits() - 1),
            1e-7,
            f64::from_bits(1e-7f64.to_bits() - 1),
            1e-6,
            f64::from_bits(1e-6f64.to_bits() - 1),
        ] {
            check(v);
        }
        for biased in 0u64..0x7ff {
            for fraction in [
                0u64,
                1,
                2,
                3,
                (1 << 52) - 1,
                (1 << 51) + 1,
                0x5555_5555_5555,
            ] {
                let v = f64::from_bits(biased << 52 | fraction);
                if v != 0.0 {
                    check(v);
                }
            }
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(20_000))]
            #[test]
            fn shortest_digits_are_ryus(bits in any::<u64>()) {
                let v = f64::from_bits(bits).abs();
                if v.is_finite() && v != 0.0 {
                    check(v);
                }
            }

            #[test]
            fn json_layout_is_serde_jsons(bits in any::<u64>(), m in 1u64..100_000, e in -330i32..310) {
                let short: f64 = format!("{m}e{e}").parse().unwrap();
                for v in [f64::from_bits(bits), short, -short] {
                    if v.is_finite() {
                        let mut out = String::new();
                        push(&mut out, v, Layout::Json);
                        prop_assert_eq!(out, serde_json::to_string(&v).unwrap());
                    }
                }
            }

            #[test]
            fn message_layout_is_javascripts(bits in any::<u64>(), m in 1u64..100_000, e in -330i32..310) {
                let short: f64 = format!("{m}e{e}").parse().unwrap();
                for v in [f64::from_bits(bits), short, -short] {
                    if v.is_finite() {
                        prop_assert_eq!(message(v), js_to_string(v));
                    }
                }
            }

            #[test]
            fn short_decimals_are_ryus(m in 1u64..100_000_000, e in -330i32..310) {
                let v: f64 = format!("{m}e{e}").parse().unwrap();
                if v.is_finite() && v != 0.0 {
                    check(v);
                }
            }
        }
    }
}
