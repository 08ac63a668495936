//! The HTTP response inside a WARC `response` record: its status line, its headers, and its body
//! as a parser would see it, with a chunked transfer coding and a gzip or deflate content coding
//! removed, cut at RFC 9309's parse limit.
//!
//! Everything is read as a stream: a header block is read up to [`MAX_HTTP_HEADER`] bytes and a
//! body is decoded up to [`MAX_BODY`] bytes (and one more, to tell that it was longer), so a
//! record that claims gigabytes, or a body that inflates to gigabytes, costs no more memory than
//! one that does not. What is not read is left for the caller to skip.

use std::io::{self, BufRead, Read};

use flate2::bufread::{DeflateDecoder, GzDecoder, ZlibDecoder};

/// Largest HTTP status line and header block read, in bytes.
pub const MAX_HTTP_HEADER: usize = 64 << 10;
/// Largest body kept: RFC 9309 §2.5 asks crawlers to parse at least 500 KiB, and a crawler that
/// stops there sees these bytes. A longer body is cut here, and counted.
pub const MAX_BODY: usize = 500 << 10;

/// Why a response could not be read.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    #[error("no HTTP status line (found {0:?})")]
    StatusLine(String),
    #[error("the HTTP header block is longer than {MAX_HTTP_HEADER} bytes or never ends")]
    HeaderBlock,
    #[error("chunked transfer coding: {0}")]
    Chunked(String),
    #[error("Content-Encoding {coding}: {detail}")]
    Coding { coding: String, detail: String },
    #[error(
        "Content-Encoding {0:?} is not one the survey removes (gzip, x-gzip, deflate, identity)"
    )]
    UnknownCoding(String),
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// A response's status and headers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    pub status: u16,
    /// `Transfer-Encoding` names `chunked` as its last coding.
    pub chunked: bool,
    /// The `Content-Encoding`, lower-cased, when there is one other than `identity`.
    pub coding: Option<String>,
}

/// A decoded body, at most [`MAX_BODY`] bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Body {
    pub bytes: Vec<u8>,
    /// The decoded body was longer than [`MAX_BODY`]; `bytes` holds its start.
    pub cut: bool,
}

/// Reads the status line and the header block of the response in `input`.
pub fn read_head(input: &mut dyn BufRead) -> Result<Head, HttpError> {
    let mut budget = MAX_HTTP_HEADER;
    let first = read_line(input, &mut budget)?.ok_or(HttpError::HeaderBlock)?;
    let status = status_of(&first)
        .ok_or_else(|| HttpError::StatusLine(String::from_utf8_lossy(&first).into_owned()))?;
    let mut head = Head {
        status,
        chunked: false,
        coding: None,
    };
    loop {
        let line = read_line(input, &mut budget)?.ok_or(HttpError::HeaderBlock)?;
        if line.is_empty() {
            return Ok(head);
        }
        let Some((name, value)) = split_field(&line) else {
            continue;
        };
        if name.eq_ignore_ascii_case("transfer-encoding") {
            head.chunked = value
                .rsplit(',')
                .next()
                .is_some_and(|last| last.trim().eq_ignore_ascii_case("chunked"));
        } else if name.eq_ignore_ascii_case("content-encoding") {
            let coding = value.trim().to_ascii_lowercase();
            head.coding = (!coding.is_empty() && coding != "identity").then_some(coding);
        }
    }
}

/// The status code of an HTTP status line: `HTTP/1.1 200 OK` gives 200.
fn status_of(line: &[u8]) -> Option<u16> {
    let text = std::str::from_utf8(line).ok()?;
    let mut words = text.split_ascii_whitespace();
    if !words.next()?.starts_with("HTTP/") {
        return None;
    }
    let code = words.next()?;
    if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    code.parse().ok()
}

/// `Name: value` with the value trimmed; `None` for a line without a colon.
pub(crate) fn split_field(line: &[u8]) -> Option<(&str, &str)> {
    let colon = line.iter().position(|&b| b == b':')?;
    let name = std::str::from_utf8(&line[..colon]).ok()?.trim();
    // A value that is not UTF-8 is no header this module needs: read it as empty.
    let value = std::str::from_utf8(&line[colon + 1..]).unwrap_or("").trim();
    Some((name, value))
}

/// One line without its CR LF (or lone LF), charged against `budget`; `None` at the end of input.
/// A line that would exceed the budget is an error: a header block that never ends is refused
/// rather than read into memory.
pub(crate) fn read_line(
    input: &mut dyn BufRead,
    budget: &mut usize,
) -> Result<Option<Vec<u8>>, HttpError> {
    let mut line = Vec::new();
    let mut limited = input.take(*budget as u64 + 1);
    let read = limited.read_until(b'\n', &mut line)?;
    if read == 0 {
        return Ok(None);
    }
    if read > *budget || !line.ends_with(b"\n") {
        return Err(HttpError::HeaderBlock);
    }
    *budget -= read;
    line.pop();
    if line.ends_with(b"\r") {
        line.pop();
    }
    Ok(Some(line))
}

/// Reads the body that follows `head` in `input`, decoded, keeping at most [`MAX_BODY`] bytes.
/// What follows the kept bytes is left unread.
pub fn read_body(head: &Head, input: &mut dyn BufRead) -> Result<Body, HttpError> {
    let mut chunked;
    let raw: &mut dyn BufRead = if head.chunked {
        chunked = io::BufReader::new(Chunked::new(input));
        &mut chunked
    } else {
        input
    };
    let Some(coding) = &head.coding else {
        return keep(raw).map_err(chunk_error);
    };
    // An empty body stays empty whatever the header says (a server that labels nothing).
    if raw.fill_buf().map_err(chunk_error)?.is_empty() {
        return Ok(Body {
            bytes: Vec::new(),
            cut: false,
        });
    }
    let failed = |e: io::Error| {
        if e.get_ref().is_some_and(|inner| inner.is::<ChunkError>()) {
            chunk_error(e)
        } else {
            HttpError::Coding {
                coding: coding.clone(),
                detail: e.to_string(),
            }
        }
    };
    match coding.as_str() {
        "gzip" | "x-gzip" => keep(&mut GzDecoder::new(raw)).map_err(failed),
        // `deflate` means zlib-wrapped data; some servers send the raw stream instead.
        "deflate" => {
            let zlib = raw.fill_buf().map_err(chunk_error)?.first().copied();
            if zlib.is_some_and(|b| b & 0x0f == 8) {
                keep(&mut ZlibDecoder::new(raw)).map_err(failed)
            } else {
                keep(&mut DeflateDecoder::new(raw)).map_err(failed)
            }
        }
        other => Err(HttpError::UnknownCoding(other.to_owned())),
    }
}

fn chunk_error(e: io::Error) -> HttpError {
    match e
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<ChunkError>())
    {
        Some(ChunkError(why)) => HttpError::Chunked(why.clone()),
        None => HttpError::Io(e),
    }
}

/// Reads up to [`MAX_BODY`] bytes and tells whether there was more.
fn keep(input: &mut dyn Read) -> io::Result<Body> {
    let mut bytes = Vec::new();
    input.take(MAX_BODY as u64 + 1).read_to_end(&mut bytes)?;
    let cut = bytes.len() > MAX_BODY;
    bytes.truncate(MAX_BODY);
    Ok(Body { bytes, cut })
}

/// A malformed chunked body, carried inside an `io::Error` through the decoders.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct ChunkError(String);

fn chunk_fault(why: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, ChunkError(why.into()))
}

/// Removes a chunked transfer coding (RFC 9112 §7.1) as a stream: chunk sizes, extensions and
/// trailers are read and dropped, chunk data passed through.
struct Chunked<'a> {
    input: &'a mut dyn BufRead,
    /// Bytes left in the current chunk; `None` before a size line, or once the last chunk is
    /// read.
    left: Option<u64>,
    done: bool,
}

/// Longest chunk-size or trailer line read.
const MAX_CHUNK_LINE: usize = 4 << 10;

impl<'a> Chunked<'a> {
    fn new(input: &'a mut dyn BufRead) -> Chunked<'a> {
        Chunked {
            input,
            left: None,
            done: false,
        }
    }

    fn line(&mut self) -> io::Result<Vec<u8>> {
        let mut budget = MAX_CHUNK_LINE;
        match read_line(self.input, &mut budget) {
            Ok(Some(line)) => Ok(line),
            Ok(None) => Err(chunk_fault("the body ends before its last chunk")),
            Err(HttpError::Io(e)) => Err(e),
            Err(_) => Err(chunk_fault("a chunk-size line is too long")),
        }
    }
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.done || buf.is_empty() {
                return Ok(0);
            }
            match self.left {
                None => {
                    let line = self.line()?;
                    let size = line.split(|&b| b == b';').next().unwrap_or_default();
                    let size = std::str::from_utf8(size)
                        .ok()
                        .map(str::trim)
                        .filter(|s| !s.is_empty() && s.len() <= 16)
                        .and_then(|s| u64::from_str_radix(s, 16).ok())
                        .ok_or_else(|| {
                            chunk_fault(format!(
                                "bad chunk size {:?}",
                                String::from_utf8_lossy(&line)
                            ))
                        })?;
                    if size == 0 {
                        // Trailer fields up to the blank line.
                        while !self.line()?.is_empty() {}
                        self.done = true;
                    } else {
                        self.left = Some(size);
                    }
                }
                Some(0) => {
                    if !self.line()?.is_empty() {
                        return Err(chunk_fault("chunk data runs past its size"));
                    }
                    self.left = None;
                }
                Some(left) => {
                    let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
                    let read = self.input.read(&mut buf[..want])?;
                    if read == 0 {
                        return Err(chunk_fault("the body ends inside a chunk"));
                    }
                    self.left = Some(left - read as u64);
                    return Ok(read);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write as _;

    fn response(text: &[u8]) -> Result<(Head, Body), HttpError> {
        let mut input = text;
        let head = read_head(&mut input)?;
        let body = read_body(&head, &mut input)?;
        Ok((head, body))
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn plain_chunked_and_gzip_bodies() {
        let (head, body) =
            response(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nUser-agent: *\n")
                .unwrap();
        assert_eq!(head.status, 200);
        assert_eq!(body.bytes, b"User-agent: *\n");
        let (_, body) = response(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nUser-\r\n9\r\nagent: *\n\r\n0\r\nX: y\r\n\r\n",
        )
        .unwrap();
        assert_eq!(body.bytes, b"User-agent: *\n");
        let mut text = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
        text.extend(gzip(b"Disallow: /\n"));
        assert_eq!(response(&text).unwrap().1.bytes, b"Disallow: /\n");
        // Both: chunks of gzip data.
        let zipped = gzip(b"Allow: /a\n");
        let mut text =
            b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"
                .to_vec();
        for part in zipped.chunks(7) {
            text.extend(format!("{:x}\r\n", part.len()).bytes());
            text.extend(part);
            text.extend(b"\r\n");
        }
        text.extend(b"0\r\n\r\n");
        assert_eq!(response(&text).unwrap().1.bytes, b"Allow: /a\n");
    }

    #[test]
    fn bodies_are_cut_at_the_parse_limit() {
        let big = vec![b'#'; MAX_BODY * 3];
        let mut text = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
        text.extend(gzip(&big));
        let (_, body) = response(&text).unwrap();
        assert!(body.cut);
        assert_eq!(body.bytes.len(), MAX_BODY);
        let exact = vec![b'#'; MAX_BODY];
        let mut text = b"HTTP/1.0 200 OK\r\n\r\n".to_vec();
        text.extend(&exact);
        assert!(!response(&text).unwrap().1.cut);
    }

    #[test]
    fn broken_responses_are_errors() {
        assert!(matches!(
            response(b"<html>\r\n\r\n"),
            Err(HttpError::StatusLine(_))
        ));
        assert!(matches!(
            response(b"HTTP/1.1 200 OK\r\nServer: x\r\n"),
            Err(HttpError::HeaderBlock)
        ));
        let endless = [
            b"HTTP/1.1 200 OK\r\nX: ".as_slice(),
            &[b'a'; MAX_HTTP_HEADER],
        ]
        .concat();
        assert!(matches!(response(&endless), Err(HttpError::HeaderBlock)));
        assert!(matches!(
            response(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
            Err(HttpError::Chunked(_))
        ));
        assert!(matches!(
            response(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nshort"),
            Err(HttpError::Chunked(_))
        ));
        assert!(matches!(
            response(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\nnot gzip at all"),
            Err(HttpError::Coding { .. })
        ));
        assert!(matches!(
            response(b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\nxx"),
            Err(HttpError::UnknownCoding(_))
        ));
        // An empty body labelled gzip is empty.
        assert_eq!(
            response(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n")
                .unwrap()
                .1
                .bytes,
            b""
        );
    }
}
