//! Reading WARC 1.0 and 1.1 files record by record: plain files, and gzip files whose records are
//! each their own gzip member, as Common Crawl writes them (a gzip file of one member holding
//! many records reads too).
//!
//! Every record becomes one [`Item`]: a `response` with its HTTP status and decoded body
//! ([`super::http`]), another record counted by its type, or a [`Skipped`] that names the record
//! and why it was skipped. A fault never ends the reading: the reader finds the next record (the
//! next gzip member that starts a WARC record, or the next `WARC/1.` line of a plain file) and
//! goes on. Only a file that cannot be opened or read at all is an error.
//!
//! Memory stays bounded whatever a record claims: a header block is read up to
//! [`MAX_WARC_HEADER`] bytes, a body is kept up to [`super::http::MAX_BODY`], and the rest of a
//! record is read past, never kept.
//!
//! Why not the `warc` crate (0.4): it reads a gzip file as one stream (`MultiDecoder`), so a
//! member's boundary is lost and a truncated member or a lying `Content-Length` ends the reading
//! of the file instead of one record; it reads header blocks and bodies line by line into memory
//! with no bound; and it neither removes transfer or content codings nor resynchronises. This
//! reader is the framing alone, over `flate2`'s single-member gzip decoder, which stops at the
//! end of each member and so gives a place to start again.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use flate2::bufread::GzDecoder;
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use super::http::{self, HttpError};
pub use super::warc_fields::{host_of, normalise_date};
use super::warc_fields::{read_header, Header, HeaderError};

pub use crate::limits::MAX_WARC_HEADER;
const GZIP_MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

/// Why a file could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum WarcError {
    #[error("{path}: {source}")]
    Io { path: String, source: io::Error },
}

/// Where a record starts: the offset of its gzip member (of the record itself in a plain file),
/// and its place inside the member (0 for the first record, as in every Common Crawl file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Place {
    pub offset: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub index: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// One record of a WARC file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// A `response` record holding an HTTP response for an `http(s)` URI.
    Response(Response),
    /// Any other record, by its `WARC-Type` (`warcinfo`, `request`, `metadata`, ...).
    Other {
        place: Place,
        kind: String,
    },
    Skipped(Skipped),
}

/// A response, read and decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub place: Place,
    pub record_id: String,
    pub target: String,
    /// `scheme://host[:port]`: what one robots.txt file governs (RFC 9309 §2.3).
    pub host: String,
    /// `WARC-Date`, as `YYYY-MM-DDThh:mm:ss.nnnnnnnnnZ`, so that text order is time order.
    pub time: String,
    pub status: u16,
    /// For a 2xx response: the decoded body, its SHA-256 and whether it was cut. Other responses
    /// keep no body: RFC 9309 does not parse them.
    pub body: Option<ServedBody>,
}

/// A 2xx response's body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServedBody {
    pub bytes: Vec<u8>,
    pub cut: bool,
    pub sha256: [u8; 32],
}

/// A record skipped, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    pub kind: FaultKind,
    pub place: Place,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    pub detail: String,
}

/// The kinds of skipped records, as the report names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaultKind {
    /// A gzip member that ends early or does not decompress.
    TruncatedMember,
    /// A record whose content is shorter or longer than its `Content-Length`.
    BadLength,
    /// A WARC header block that cannot be read: not WARC 1.0 or 1.1, a field missing or
    /// malformed, or longer than [`MAX_WARC_HEADER`].
    BadHeader,
    /// A response whose `WARC-Target-URI` is not an `http` or `https` URI with a host.
    BadTarget,
    /// A response record that does not hold an HTTP response (`Content-Type` other than
    /// `application/http`, or no status line).
    BadHttp,
    /// A 2xx body whose transfer or content coding cannot be removed.
    BadEncoding,
    /// Bytes between records that start no record.
    Garbage,
}

impl FaultKind {
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::TruncatedMember => "truncated-member",
            FaultKind::BadLength => "bad-length",
            FaultKind::BadHeader => "bad-header",
            FaultKind::BadTarget => "bad-target",
            FaultKind::BadHttp => "bad-http",
            FaultKind::BadEncoding => "bad-encoding",
            FaultKind::Garbage => "garbage",
        }
    }
}

/// Calls `visit` with every record of the WARC file at `path`, in file order, until it returns
/// `false`.
pub fn read_warc(path: &Path, visit: &mut dyn FnMut(Item) -> bool) -> Result<(), WarcError> {
    let at = |source| WarcError::Io {
        path: path.display().to_string(),
        source,
    };
    // A regular file only (a FIFO is refused, not waited on); the reader holds its own bounds.
    let file = robotstxt_suite::input::open_regular(path).map_err(|e| at(e.into()))?;
    let mut input = BufReader::with_capacity(256 << 10, file);
    let gzip = input.fill_buf().map_err(at)?.starts_with(&GZIP_MAGIC[..2]);
    if gzip {
        read_members(&mut input, visit).map_err(at)
    } else {
        read_plain(&mut input, visit).map_err(at)
    }
}

/// How reading one record ended, besides the item it gave.
enum End {
    /// The record and its trailing CR LF CR LF were read; the next record may follow.
    Whole,
    /// The record's framing is broken: read on from a resynchronisation point.
    Broken,
}

fn read_members(
    input: &mut BufReader<File>,
    visit: &mut dyn FnMut(Item) -> bool,
) -> io::Result<()> {
    loop {
        let start = input.stream_position()?;
        let head = input.fill_buf()?;
        if head.is_empty() {
            return Ok(());
        }
        if !head.starts_with(&GZIP_MAGIC[..2]) {
            let place = Place {
                offset: start,
                index: 0,
            };
            if !visit(fault(
                FaultKind::Garbage,
                place,
                "bytes that start no gzip member",
            )) {
                return Ok(());
            }
            resync_members(input, start + 1)?;
            continue;
        }
        let decoder = Cautious {
            inner: GzDecoder::new(&mut *input),
            given: 0,
        };
        let mut member = BufReader::with_capacity(64 << 10, decoder);
        let mut index = 0u32;
        let mut reported = false;
        let broken = loop {
            match member.fill_buf() {
                Ok([]) => break false,
                Ok(_) => {}
                Err(_) => break true,
            }
            let place = Place {
                offset: start,
                index,
            };
            match read_record(&mut member, place) {
                Ok((item, end)) => {
                    reported |= matches!(item, Item::Skipped(_));
                    if !visit(item) {
                        return Ok(());
                    }
                    if let End::Broken = end {
                        // The rest of the member cannot be framed: skip it whole.
                        break io::copy(&mut member, &mut io::sink()).is_err();
                    }
                }
                Err(e) => {
                    // Named by what of its header could be read.
                    let item = Item::Skipped(Skipped {
                        kind: FaultKind::TruncatedMember,
                        place,
                        record_id: e.record_id,
                        target: e.target,
                        detail: format!(
                            "the gzip member ends early or does not decompress: {}",
                            e.error
                        ),
                    });
                    if !visit(item) {
                        return Ok(());
                    }
                    reported = true;
                    break true;
                }
            }
            index = index.saturating_add(1);
        };
        drop(member);
        if broken {
            if !reported {
                let place = Place {
                    offset: start,
                    index,
                };
                let item = fault(
                    FaultKind::TruncatedMember,
                    place,
                    "the gzip member ends early or does not decompress",
                );
                if !visit(item) {
                    return Ok(());
                }
            }
            resync_members(input, start + 1)?;
        }
    }
}

/// A member's decoder read in small steps at first, so that a record's header comes out before
/// the decoder meets the damage of a truncated member: a read that fails gives nothing, and the
/// header is what names the record in the report.
struct Cautious<R> {
    inner: R,
    given: usize,
}

impl<R: Read> Read for Cautious<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let step = if self.given < 4096 { 256 } else { buf.len() };
        let step = step.min(buf.len());
        let read = self.inner.read(&mut buf[..step])?;
        self.given += read;
        Ok(read)
    }
}

/// Moves `input` to the next gzip member at or after `from` whose data starts a WARC record, or
/// to the end of the file.
fn resync_members(input: &mut BufReader<File>, from: u64) -> io::Result<()> {
    let mut at = from;
    loop {
        input.seek(SeekFrom::Start(at))?;
        let Some(candidate) = find(input, &GZIP_MAGIC)? else {
            return Ok(());
        };
        input.seek(SeekFrom::Start(candidate))?;
        let mut start = [0u8; 7];
        let starts_record =
            GzDecoder::new(&mut *input).read_exact(&mut start).is_ok() && &start == b"WARC/1.";
        input.seek(SeekFrom::Start(candidate))?;
        if starts_record {
            return Ok(());
        }
        at = candidate + 1;
    }
}

/// The offset of the next occurrence of `pattern` in `input`, leaving `input` there; `None` at the
/// end of input. Reads in the buffer's steps, keeping nothing.
fn find(input: &mut BufReader<File>, pattern: &[u8]) -> io::Result<Option<u64>> {
    let mut matched = 0;
    loop {
        let position = input.stream_position()?;
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(None);
        }
        for (i, &b) in buffer.iter().enumerate() {
            matched = if b == pattern[matched] {
                matched + 1
            } else {
                usize::from(b == pattern[0])
            };
            if matched == pattern.len() {
                let found = position + i as u64 + 1 - pattern.len() as u64;
                return Ok(Some(found));
            }
        }
        let used = buffer.len();
        input.consume(used);
    }
}

fn read_plain(input: &mut BufReader<File>, visit: &mut dyn FnMut(Item) -> bool) -> io::Result<()> {
    loop {
        // Blank lines between records are tolerated.
        loop {
            let head = input.fill_buf()?;
            match head.first() {
                None => return Ok(()),
                Some(b'\r' | b'\n') => input.consume(1),
                Some(_) => break,
            }
        }
        let offset = input.stream_position()?;
        let place = Place { offset, index: 0 };
        let (item, end) = read_record(input, place).map_err(|e| e.error)?;
        if !visit(item) {
            return Ok(());
        }
        if let End::Broken = end {
            input.seek(SeekFrom::Start(offset + 1))?;
            match find(input, b"\nWARC/1.")? {
                Some(line) => {
                    input.seek(SeekFrom::Start(line + 1))?;
                }
                None => return Ok(()),
            }
        }
    }
}

fn fault(kind: FaultKind, place: Place, detail: impl Into<String>) -> Item {
    Item::Skipped(Skipped {
        kind,
        place,
        record_id: None,
        target: None,
        detail: detail.into(),
    })
}

/// An error of the input itself while a record was read (for a gzip member: it does not
/// decompress), with what of the record's header was read.
struct ReadError {
    error: io::Error,
    record_id: Option<String>,
    target: Option<String>,
}

/// Reads one record at the start of `input`. Everything wrong with the record itself is an
/// [`Item::Skipped`].
fn read_record(input: &mut dyn BufRead, place: Place) -> Result<(Item, End), ReadError> {
    let header = match read_header(input) {
        Ok(header) => header,
        Err(HeaderError::Io(error, partial)) => {
            return Err(ReadError {
                error,
                record_id: partial.record_id,
                target: partial.target,
            })
        }
        Err(HeaderError::Bad(why)) => {
            return Ok((fault(FaultKind::BadHeader, place, why), End::Broken))
        }
    };
    let named = |kind, detail: String| {
        Item::Skipped(Skipped {
            kind,
            place,
            record_id: header.record_id.clone(),
            target: header.target.clone(),
            detail,
        })
    };
    let (Some(kind), Some(length)) = (&header.kind, &header.length) else {
        let why = "no WARC-Type or no Content-Length".to_owned();
        return Ok((named(FaultKind::BadHeader, why), End::Broken));
    };
    let Ok(length) = length.parse::<u64>() else {
        let why = format!("Content-Length {length:?} is not a number");
        return Ok((named(FaultKind::BadHeader, why), End::Broken));
    };
    let mut content = input.take(length);
    let outcome = if kind == "response" {
        response(&header, &mut content, place)
    } else {
        Ok(Item::Other {
            place,
            kind: kind.clone(),
        })
    };
    let failed = |error| ReadError {
        error,
        record_id: header.record_id.clone(),
        target: header.target.clone(),
    };
    // The rest of the content block is read past, never kept.
    io::copy(&mut content, &mut io::sink()).map_err(failed)?;
    if content.limit() > 0 {
        let why = format!(
            "the record ends {} bytes before its Content-Length of {length}",
            content.limit()
        );
        return Ok((named(FaultKind::BadLength, why), End::Broken));
    }
    let mut trailer = [0u8; 4];
    let mut got = 0;
    while got < trailer.len() {
        match input.read(&mut trailer[got..]).map_err(failed)? {
            0 => break,
            n => got += n,
        }
    }
    if trailer[..got] != b"\r\n\r\n"[..] {
        let why = format!(
            "{} bytes after a content of Content-Length {length} are not the CR LF CR LF that ends a record",
            got
        );
        return Ok((named(FaultKind::BadLength, why), End::Broken));
    }
    let item = match outcome {
        Ok(item) => item,
        Err((kind, why)) => named(kind, why),
    };
    Ok((item, End::Whole))
}

/// A response record's content as an [`Item::Response`], or the fault that skips it.
fn response(
    header: &Header,
    content: &mut dyn BufRead,
    place: Place,
) -> Result<Item, (FaultKind, String)> {
    let record_id = header
        .record_id
        .clone()
        .ok_or((FaultKind::BadHeader, "no WARC-Record-ID".to_owned()))?;
    let date = header
        .date
        .as_deref()
        .ok_or((FaultKind::BadHeader, "no WARC-Date".to_owned()))?;
    let time = normalise_date(date).ok_or_else(|| {
        (
            FaultKind::BadHeader,
            format!("WARC-Date {date:?} is not a W3C date"),
        )
    })?;
    let target = header
        .target
        .clone()
        .ok_or((FaultKind::BadTarget, "no WARC-Target-URI".to_owned()))?;
    let host = host_of(&target).ok_or_else(|| {
        (
            FaultKind::BadTarget,
            format!("{target:?} is not an http(s) URI with a host"),
        )
    })?;
    if let Some(t) = &header.content_type {
        if !t.to_ascii_lowercase().starts_with("application/http") {
            return Err((
                FaultKind::BadHttp,
                format!("Content-Type {t:?} is not application/http"),
            ));
        }
    }
    let head = http::read_head(content).map_err(|e| (FaultKind::BadHttp, e.to_string()))?;
    let body = if (200..300).contains(&head.status) {
        let body = http::read_body(&head, content).map_err(|e| match e {
            HttpError::Io(e) => (FaultKind::BadLength, e.to_string()),
            other => (FaultKind::BadEncoding, other.to_string()),
        })?;
        let sha256 = Sha256::digest(&body.bytes).into();
        Some(ServedBody {
            bytes: body.bytes,
            cut: body.cut,
            sha256,
        })
    } else {
        None
    };
    Ok(Item::Response(Response {
        place,
        record_id,
        target,
        host,
        time,
        status: head.status,
        body,
    }))
}
