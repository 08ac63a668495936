//! The header block of a WARC record: reading it (version line, fields, folded lines) within a
//! bound, the host a `WARC-Target-URI` names, and `WARC-Date` as text that sorts as time does.

use std::io::{self, BufRead};

use super::http::{self, HttpError};
use crate::limits::MAX_WARC_HEADER;

/// The fields of a WARC header block this reader uses.
#[derive(Default)]
pub(super) struct Header {
    pub(super) kind: Option<String>,
    pub(super) record_id: Option<String>,
    pub(super) target: Option<String>,
    pub(super) date: Option<String>,
    pub(super) length: Option<String>,
    pub(super) content_type: Option<String>,
}

pub(super) enum HeaderError {
    /// The input failed; the fields read before it.
    Io(io::Error, Box<Header>),
    Bad(String),
}

/// Reads a WARC header block: the version line, fields (folded lines joined), the blank line.
pub(super) fn read_header(input: &mut dyn BufRead) -> Result<Header, HeaderError> {
    let mut budget = MAX_WARC_HEADER;
    let mut line = || match http::read_line(input, &mut budget) {
        Ok(Some(line)) => Ok(line),
        Ok(None) => Err(HeaderError::Bad("the header block ends early".to_owned())),
        Err(HttpError::Io(e)) => Err(HeaderError::Io(e, Box::default())),
        Err(_) => Err(HeaderError::Bad(format!(
            "the header block is longer than {MAX_WARC_HEADER} bytes"
        ))),
    };
    let version = line()?;
    if version != b"WARC/1.0" && version != b"WARC/1.1" {
        let shown: String = String::from_utf8_lossy(&version).chars().take(40).collect();
        return Err(HeaderError::Bad(format!(
            "{shown:?} is not WARC/1.0 or WARC/1.1"
        )));
    }
    let mut fields: Vec<Vec<u8>> = Vec::new();
    loop {
        let next = match line() {
            Ok(next) => next,
            Err(HeaderError::Io(e, _)) => {
                // What was read names the record in the fault.
                let partial = fill(&fields, false).unwrap_or_default();
                return Err(HeaderError::Io(e, Box::new(partial)));
            }
            Err(bad) => return Err(bad),
        };
        if next.is_empty() {
            break;
        }
        match (next[0], fields.last_mut()) {
            // A folded line continues the field before it.
            (b' ' | b'\t', Some(last)) => {
                last.push(b' ');
                last.extend(next.trim_ascii_start());
            }
            _ => fields.push(next),
        }
    }
    fill(&fields, true)
}

/// The fields this reader uses, from a header block's lines; with `strict`, a line that is no
/// field is an error, else it is passed over.
fn fill(fields: &[Vec<u8>], strict: bool) -> Result<Header, HeaderError> {
    let mut header = Header::default();
    for field in fields {
        let Some((name, value)) = http::split_field(field) else {
            if !strict {
                continue;
            }
            return Err(HeaderError::Bad(format!(
                "{:?} is not a header field",
                String::from_utf8_lossy(field)
            )));
        };
        let slot = match name.to_ascii_lowercase().as_str() {
            "warc-type" => &mut header.kind,
            "warc-record-id" => &mut header.record_id,
            "warc-target-uri" => &mut header.target,
            "warc-date" => &mut header.date,
            "content-length" => &mut header.length,
            "content-type" => &mut header.content_type,
            _ => continue,
        };
        // WARC 1.0 wrote URIs in angle brackets in places; they are not part of the URI.
        let value = value
            .strip_prefix('<')
            .and_then(|v| v.strip_suffix('>'))
            .unwrap_or(value);
        *slot = Some(value.to_owned());
    }
    Ok(header)
}

/// `scheme://host[:port]` of an `http` or `https` URI: the scope of one robots.txt file, with
/// the host lower-cased (and IDNA-encoded) and a default port left out, as the URL standard
/// writes them.
pub fn host_of(target: &str) -> Option<String> {
    let url = url::Url::parse(target).ok()?;
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    let host = url.host_str().filter(|h| !h.is_empty())?;
    Some(match url.port() {
        Some(port) => format!("{}://{host}:{port}", url.scheme()),
        None => format!("{}://{host}", url.scheme()),
    })
}

/// A W3C-ISO8601 date-time as WARC-Date writes it (`2024-03-01T12:34:56Z`, with up to nine
/// digits of fraction in WARC 1.1) as `YYYY-MM-DDThh:mm:ss.nnnnnnnnnZ`, in UTC: text that sorts
/// as the instants do, so a host's last capture is the greatest.
pub fn normalise_date(date: &str) -> Option<String> {
    let instant: jiff::Timestamp = date.parse().ok()?;
    Some(instant.strftime("%Y-%m-%dT%H:%M:%S.%9fZ").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_normalise_to_sortable_text() {
        assert_eq!(
            normalise_date("2024-03-01T12:34:56Z").unwrap(),
            "2024-03-01T12:34:56.000000000Z"
        );
        assert_eq!(
            normalise_date("2024-03-01T12:34:56.5Z").unwrap(),
            "2024-03-01T12:34:56.500000000Z"
        );
        assert!(
            normalise_date("2024-03-01T12:34:56.5Z").unwrap()
                > normalise_date("2024-03-01T12:34:56Z").unwrap()
        );
        for bad in [
            "2024-03-01",
            "2024-03-01T12:34:56",
            "2024-03-01T12:34:56.Z",
            "2024-3-01T12:34:56Z",
            "2024-03-01T12:34:56.1234567890Z",
        ] {
            assert!(normalise_date(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn hosts_keep_scheme_and_port_apart() {
        assert_eq!(
            host_of("https://Example.COM/robots.txt").unwrap(),
            "https://example.com"
        );
        assert_eq!(
            host_of("http://example.com:80/robots.txt").unwrap(),
            "http://example.com"
        );
        assert_eq!(
            host_of("http://example.com:8080/robots.txt").unwrap(),
            "http://example.com:8080"
        );
        assert!(host_of("ftp://example.com/robots.txt").is_none());
        assert!(host_of("dns:example.com").is_none());
    }
}
