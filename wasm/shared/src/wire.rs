//! The wire format of one call: a sequence of sections, each an 8-byte header
//! (`tag: u32`, `count: u32`, little-endian) and a payload padded to 8 bytes, so that
//! every `f64` and `u32` payload is aligned and is read in place (no copy).
//!
//! | tag | payload |
//! |---|---|
//! | 0 `NONE` | nothing (an absent optional value) |
//! | 1 `TEXT` | `count` bytes of UTF-8 |
//! | 2 `F64` | `count` little-endian `f64` |
//! | 3 `U32` | `count` little-endian `u32` |
//! | 4 `U8` | `count` bytes |
//! | 5 `STRS` | `count` strings: `count + 1` `u32` offsets (padded to 8), then the UTF-8 bytes of all of them, concatenated |
//!
//! js/wire.js writes and reads the same format. Which sections a call carries, in
//! which order, is fixed per export (see the `ops` modules of the two bindings).

use calibrank::error::{ErrorCode, Result, ScoreError};

/// Section tags.
pub mod tag {
    /// An absent value.
    pub const NONE: u32 = 0;
    /// UTF-8 text.
    pub const TEXT: u32 = 1;
    /// `f64` values.
    pub const F64: u32 = 2;
    /// `u32` values.
    pub const U32: u32 = 3;
    /// Bytes.
    pub const U8: u32 = 4;
    /// A string table.
    pub const STRS: u32 = 5;
}

fn wire_error(message: impl Into<String>) -> ScoreError {
    ScoreError::new(ErrorCode::Internal, "", format!("wire: {}", message.into()))
}

const fn pad8(n: usize) -> usize {
    (n + 7) & !7
}

/// Gives `words`' memory back to the allocator when it holds more than `bytes`.
pub fn release_above(words: &mut Vec<u64>, bytes: usize) {
    if words.capacity().saturating_mul(8) > bytes {
        *words = Vec::new();
    }
}

/// Strings of one call: `count` strings in one UTF-8 buffer, validated once.
#[derive(Debug, Clone, Copy)]
pub struct Strs<'a> {
    text: &'a str,
    offsets: &'a [u32],
}

impl<'a> Strs<'a> {
    /// The number of strings.
    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// String `i`.
    pub fn get(&self, i: usize) -> Result<&'a str> {
        let (Some(&a), Some(&b)) = (self.offsets.get(i), self.offsets.get(i + 1)) else {
            return Err(wire_error(format!("string {i} of {}", self.len())));
        };
        self.text
            .get(a as usize..b as usize)
            .ok_or_else(|| wire_error(format!("string {i} bounds")))
    }

    /// The length in bytes of string `i`, without slicing it.
    pub fn byte_len(&self, i: usize) -> Option<usize> {
        let (&a, &b) = (self.offsets.get(i)?, self.offsets.get(i + 1)?);
        (b as usize).checked_sub(a as usize)
    }

    /// The first `n` strings as the text and their `n + 1` bounds (string `i` is
    /// `text[bounds[i]..bounds[i + 1]]`), or `None` when there are fewer.
    pub fn first(&self, n: usize) -> Option<(&'a str, &'a [u32])> {
        Some((self.text, self.offsets.get(..n.checked_add(1)?)?))
    }

    /// Strings `from..to` as a vector of slices.
    pub fn range(&self, from: usize, to: usize) -> Result<Vec<&'a str>> {
        (from..to).map(|i| self.get(i)).collect()
    }

    /// Total UTF-8 bytes.
    pub fn bytes(&self) -> usize {
        self.text.len()
    }
}

/// Numbers given either as indices (`Uint32Array`) or as any numbers (checked by the
/// reader of the section).
#[derive(Debug, Clone, Copy)]
pub enum Numbers<'a> {
    /// A `U32` section.
    U32(&'a [u32]),
    /// An `F64` section.
    F64(&'a [f64]),
    /// `NONE`.
    None,
}

/// Reads the sections of one call's input, in order (a clone reads on from the same
/// place, leaving the original where it was).
#[derive(Clone)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader over a whole input (8-byte aligned: it comes from a `Vec<u64>`).
    pub fn new(buf: &'a [u8]) -> Self {
        Reader { buf, pos: 0 }
    }

    fn header(&mut self) -> Result<(u32, usize)> {
        let h = self
            .buf
            .get(self.pos..self.pos + 8)
            .ok_or_else(|| wire_error("no section left"))?;
        let tag = u32::from_le_bytes([h[0], h[1], h[2], h[3]]);
        let count = u32::from_le_bytes([h[4], h[5], h[6], h[7]]) as usize;
        self.pos += 8;
        Ok((tag, count))
    }

    fn payload(&mut self, bytes: usize) -> Result<&'a [u8]> {
        let p = self
            .buf
            .get(self.pos..self.pos.saturating_add(bytes))
            .ok_or_else(|| wire_error("section past the end"))?;
        self.pos = self.pos.saturating_add(pad8(bytes));
        Ok(p)
    }

    fn expect(&mut self, want: u32, optional: bool) -> Result<Option<usize>> {
        let (tag, count) = self.header()?;
        if optional && tag == tag::NONE {
            return Ok(None);
        }
        if tag != want {
            return Err(wire_error(format!("section tag {tag}, expected {want}")));
        }
        Ok(Some(count))
    }

    fn cast<T: bytemuck::Pod>(bytes: &'a [u8]) -> Result<&'a [T]> {
        // (The error's own `Debug` would bring core::fmt's debug builders in.)
        bytemuck::try_cast_slice(bytes).map_err(|_| {
            wire_error(format!(
                "a section of {} bytes is not an aligned array of {}-byte values",
                bytes.len(),
                std::mem::size_of::<T>()
            ))
        })
    }

    /// The tag of the next section (without reading it).
    pub fn peek_tag(&self) -> Option<u32> {
        let h = self.buf.get(self.pos..self.pos + 4)?;
        Some(u32::from_le_bytes([h[0], h[1], h[2], h[3]]))
    }

    /// UTF-8 text.
    pub fn text(&mut self) -> Result<&'a str> {
        let n = self.expect(tag::TEXT, false)?.unwrap_or(0);
        let b = self.payload(n)?;
        std::str::from_utf8(b).map_err(|_| wire_error("text is not UTF-8"))
    }

    /// Optional UTF-8 text.
    pub fn opt_text(&mut self) -> Result<Option<&'a str>> {
        match self.expect(tag::TEXT, true)? {
            None => Ok(None),
            Some(n) => {
                let b = self.payload(n)?;
                std::str::from_utf8(b)
                    .map(Some)
                    .map_err(|_| wire_error("text is not UTF-8"))
            }
        }
    }

    /// `f64` values.
    pub fn f64s(&mut self) -> Result<&'a [f64]> {
        self.opt_f64s()?
            .ok_or_else(|| wire_error("missing f64 section"))
    }

    /// Optional `f64` values.
    pub fn opt_f64s(&mut self) -> Result<Option<&'a [f64]>> {
        match self.expect(tag::F64, true)? {
            None => Ok(None),
            Some(n) => {
                let b = self.payload(n.saturating_mul(8))?;
                Self::cast(b).map(Some)
            }
        }
    }

    /// `u32` values.
    pub fn u32s(&mut self) -> Result<&'a [u32]> {
        self.opt_u32s()?
            .ok_or_else(|| wire_error("missing u32 section"))
    }

    /// Optional `u32` values.
    pub fn opt_u32s(&mut self) -> Result<Option<&'a [u32]>> {
        match self.expect(tag::U32, true)? {
            None => Ok(None),
            Some(n) => {
                let b = self.payload(n.saturating_mul(4))?;
                Self::cast(b).map(Some)
            }
        }
    }

    /// Bytes.
    pub fn u8s(&mut self) -> Result<&'a [u8]> {
        let n = self.expect(tag::U8, false)?.unwrap_or(0);
        self.payload(n)
    }

    /// A string table.
    pub fn strs(&mut self) -> Result<Strs<'a>> {
        let n = self.expect(tag::STRS, false)?.unwrap_or(0);
        let offsets: &[u32] = Self::cast(self.payload((n + 1) * 4)?)?;
        let total = offsets.last().copied().unwrap_or(0) as usize;
        let text = std::str::from_utf8(self.payload(total)?)
            .map_err(|_| wire_error("strings are not UTF-8"))?;
        Ok(Strs { text, offsets })
    }

    /// A `U32` or an `F64` section (or `NONE`).
    pub fn u32s_or_f64s(&mut self) -> Result<Numbers<'a>> {
        let (tag, count) = self.header()?;
        match tag {
            tag::U32 => Ok(Numbers::U32(Self::cast(
                self.payload(count.saturating_mul(4))?,
            )?)),
            tag::F64 => Ok(Numbers::F64(Self::cast(
                self.payload(count.saturating_mul(8))?,
            )?)),
            tag::NONE => Ok(Numbers::None),
            t => Err(wire_error(format!("section tag {t}, expected u32 or f64"))),
        }
    }

    /// One `f64` (a one-element `F64` section).
    pub fn f64(&mut self) -> Result<f64> {
        self.f64s()?
            .first()
            .copied()
            .ok_or_else(|| wire_error("empty f64 section"))
    }

    /// One `u32`.
    pub fn u32(&mut self) -> Result<u32> {
        self.u32s()?
            .first()
            .copied()
            .ok_or_else(|| wire_error("empty u32 section"))
    }
}

/// Writes the sections of one call's output (8-byte aligned, like the input).
#[derive(Default)]
pub struct Writer {
    words: Vec<u64>,
    len: usize,
}

impl Writer {
    /// An empty writer (a `const fn`, for a thread-local one).
    pub const fn new() -> Self {
        Writer {
            words: Vec::new(),
            len: 0,
        }
    }

    /// Forgets what was written (keeps the memory).
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Forgets what was written and gives its memory back when it holds more than
    /// `bytes` (see `crate::call`).
    pub fn clear_to(&mut self, bytes: usize) {
        self.len = 0;
        release_above(&mut self.words, bytes);
    }

    /// Reserves the 8-byte header (status, length) that [`Writer::finish`] fills in.
    pub fn header(&mut self) {
        if self.words.is_empty() {
            self.words.resize(64, 0);
        }
        self.len = 8;
    }

    /// Writes the header: the status and the length of the sections after it.
    pub fn finish(&mut self, status: u32) {
        let body = self.len.saturating_sub(8) as u32;
        if let Some(w) = self.words.first_mut() {
            *w = u64::from(status) | (u64::from(body) << 32);
        }
    }

    /// The bytes written.
    pub fn bytes(&self) -> &[u8] {
        let all: &[u8] = bytemuck::cast_slice(&self.words);
        all.get(..self.len).unwrap_or_default()
    }

    /// Address of the output in wasm memory.
    pub fn ptr(&self) -> usize {
        self.words.as_ptr() as usize
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn section(&mut self, tag: u32, count: usize, payload: usize) -> &mut [u8] {
        let start = self.len;
        let end = start + 8 + pad8(payload);
        let words = end / 8;
        if self.words.len() < words {
            self.words.resize(words.max(self.words.len() * 2), 0);
        }
        self.len = end;
        let all: &mut [u8] = bytemuck::cast_slice_mut(&mut self.words);
        let (head, rest) = all
            .get_mut(start..end)
            .unwrap_or_default()
            .split_at_mut(8.min(end - start));
        head.get_mut(..4)
            .unwrap_or_default()
            .copy_from_slice(&tag.to_le_bytes());
        head.get_mut(4..8)
            .unwrap_or_default()
            .copy_from_slice(&(count as u32).to_le_bytes());
        rest.get_mut(..payload).unwrap_or_default()
    }

    /// An absent value.
    pub fn none(&mut self) {
        self.section(tag::NONE, 0, 0);
    }

    /// UTF-8 text.
    pub fn text(&mut self, s: &str) {
        self.section(tag::TEXT, s.len(), s.len())
            .copy_from_slice(s.as_bytes());
    }

    /// UTF-8 text, or NONE ([`Reader::opt_text`]'s counterpart).
    pub fn opt_text(&mut self, s: Option<&str>) {
        match s {
            Some(s) => self.text(s),
            None => self.none(),
        }
    }

    /// `f64` values.
    pub fn f64s(&mut self, xs: &[f64]) {
        let out = self.section(tag::F64, xs.len(), xs.len() * 8);
        out.copy_from_slice(bytemuck::cast_slice(xs));
    }

    /// `u32` values.
    pub fn u32s(&mut self, xs: &[u32]) {
        let out = self.section(tag::U32, xs.len(), xs.len() * 4);
        out.copy_from_slice(bytemuck::cast_slice(xs));
    }

    /// `n` `u32` values from `xs` (which yields `n`), without collecting them first.
    pub fn u32s_from(&mut self, n: usize, xs: impl Iterator<Item = u32>) {
        let out = self.section(tag::U32, n, n * 4);
        for (dst, x) in out.chunks_exact_mut(4).zip(xs) {
            dst.copy_from_slice(&x.to_le_bytes());
        }
    }

    /// `n` `f64` values from `xs` (which yields `n`), without collecting them first.
    pub fn f64s_from(&mut self, n: usize, xs: impl Iterator<Item = f64>) {
        let out = self.section(tag::F64, n, n * 8);
        for (dst, x) in out.chunks_exact_mut(8).zip(xs) {
            dst.copy_from_slice(&x.to_le_bytes());
        }
    }

    /// `n` bytes from `xs` (which yields `n`), without collecting them first.
    pub fn u8s_from(&mut self, n: usize, xs: impl Iterator<Item = u8>) {
        let out = self.section(tag::U8, n, n);
        for (dst, x) in out.iter_mut().zip(xs) {
            *dst = x;
        }
    }

    /// Bytes.
    pub fn u8s(&mut self, xs: &[u8]) {
        self.section(tag::U8, xs.len(), xs.len())
            .copy_from_slice(xs);
    }

    /// A string table.
    pub fn strs<'s>(&mut self, strings: impl IntoIterator<Item = &'s str> + Clone) {
        let mut offsets = vec![0u32];
        let mut total = 0usize;
        for s in strings.clone() {
            total += s.len();
            offsets.push(total as u32);
        }
        let n = offsets.len() - 1;
        let head = pad8(offsets.len() * 4);
        let out = self.section(tag::STRS, n, head + total);
        let (o, t) = out.split_at_mut(head);
        o.get_mut(..offsets.len() * 4)
            .unwrap_or_default()
            .copy_from_slice(bytemuck::cast_slice(&offsets));
        let mut at = 0;
        for s in strings {
            t.get_mut(at..at + s.len())
                .unwrap_or_default()
                .copy_from_slice(s.as_bytes());
            at += s.len();
        }
        // The string bytes are padded to 8 as a whole; `section` padded `head + total`.
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writer_output_reads_back() {
        let mut w = Writer::default();
        w.text("héllo");
        w.f64s(&[1.5, -0.0, f64::INFINITY]);
        w.none();
        w.u32s(&[7, 8, 9]);
        w.strs(["a", "", "ü"]);
        w.u8s(&[1, 2]);
        let words: Vec<u64> = bytemuck::cast_slice::<u8, u64>(&{
            let mut b = w.bytes().to_vec();
            b.resize(b.len().div_ceil(8) * 8, 0);
            b
        })
        .to_vec();
        let bytes: &[u8] = bytemuck::cast_slice(&words);
        let mut r = Reader::new(bytes);
        assert_eq!(r.text().unwrap(), "héllo");
        assert_eq!(r.f64s().unwrap(), &[1.5, -0.0, f64::INFINITY]);
        assert_eq!(r.opt_u32s().unwrap(), None);
        assert_eq!(r.u32s().unwrap(), &[7, 8, 9]);
        let s = r.strs().unwrap();
        assert_eq!(s.range(0, 3).unwrap(), vec!["a", "", "ü"]);
        assert_eq!(r.u8s().unwrap(), &[1, 2]);
        assert_eq!(r.text().unwrap_err().code, ErrorCode::Internal);
    }
}
