//! What the site answers one request: the seed and the control on `home`, the case's next
//! robots.txt response (or a fault) and its fixed paths on `a` and `b`, a small page anywhere else.

use std::io::Write;
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::Ordering;
use std::thread;
use std::time::Duration;

use super::{url_of, Head, Shared, Where, TICK};
use crate::case::{parse_location, AuthorityId, PaddingKind, ServedFault, SiteAnswer};

/// The control's path on `home`: a crawler that works fetches it in every case.
pub const CONTROL: &str = "/control";

/// Answers `head` on `stream` and says what was answered, for the log.
pub(super) fn answer(stream: &mut TcpStream, at: Where, head: &Head, shared: &Shared) -> String {
    let path = head.target.split('?').next().unwrap_or("/");
    let side = match at {
        Where::Home => return answer_home(stream, path, shared),
        Where::A => AuthorityId::A,
        Where::B => AuthorityId::B,
    };
    let authority = shared.case.authority(side);
    let response = if path == "/robots.txt" {
        let n = shared.robots_fetches[side as usize].fetch_add(1, Ordering::SeqCst);
        match authority.robots.get(n).or(authority.robots.last()) {
            Some(response) => response.clone(),
            None => not_found(),
        }
    } else if let Some(response) = authority.paths.get(path) {
        response.clone()
    } else {
        return send(stream, 200, "text/html", &[], page(path).as_bytes());
    };
    serve(stream, at, &response, shared)
}

fn answer_home(stream: &mut TcpStream, path: &str, shared: &Shared) -> String {
    match path {
        "/" => {
            let mut links = String::new();
            for (side, page) in shared.case.pages() {
                let url = url_of(shared, Where::of(side), &page);
                links.push_str(&format!("<li><a href=\"{url}\">{url}</a></li>\n"));
            }
            links.push_str(&format!("<li><a href=\"{CONTROL}\">control</a></li>\n"));
            let body = format!(
                "<!DOCTYPE html>\n<html><head><title>seed</title></head><body><ul>\n{links}</ul></body></html>\n"
            );
            send(stream, 200, "text/html", &[], body.as_bytes())
        }
        CONTROL => send(stream, 200, "text/html", &[], page(CONTROL).as_bytes()),
        _ => send(stream, 404, "text/plain", &[], b"not found\n"),
    }
}

fn not_found() -> SiteAnswer {
    SiteAnswer {
        status: 404,
        body: "not found\n".to_owned(),
        ..SiteAnswer::default()
    }
}

fn page(path: &str) -> String {
    format!("<!DOCTYPE html>\n<html><head><title>{path}</title></head><body><p>{path}</p></body></html>\n")
}

/// A case's response, or its fault.
fn serve(stream: &mut TcpStream, at: Where, response: &SiteAnswer, shared: &Shared) -> String {
    let body = body_of(response, &shared.token);
    match response.fault {
        Some(ServedFault::Reset) => {
            // SO_LINGER of zero makes the close send RST instead of FIN.
            let _ = rustix::net::sockopt::set_socket_linger(&*stream, Some(Duration::ZERO));
            let _ = stream.shutdown(Shutdown::Read);
            "reset".to_owned()
        }
        Some(ServedFault::CloseMidBody) => {
            let half = body.len() / 2;
            let head = head_of(200, content_type(response), &[], body.len());
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body[..half]);
            let _ = stream.flush();
            let _ = stream.shutdown(Shutdown::Both);
            format!("closed after {half} of {} body bytes", body.len())
        }
        Some(ServedFault::Stall) => {
            while !shared.stop.load(Ordering::SeqCst) {
                thread::sleep(TICK);
            }
            "stalled until the case ended".to_owned()
        }
        None => {
            let mut headers: Vec<(String, String)> = response
                .headers
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if let Some((side, path)) = response.location.as_deref().and_then(parse_location) {
                let target = side.map_or(at, Where::of);
                headers.push(("Location".to_owned(), url_of(shared, target, path)));
            }
            send(
                stream,
                response.status,
                content_type(response),
                &headers,
                &body,
            )
        }
    }
}

fn content_type(response: &SiteAnswer) -> &str {
    response.content_type.as_deref().unwrap_or("text/plain")
}

/// The body with `{token}` filled in and the padding at `{padding}` (or before the body).
pub fn body_of(response: &SiteAnswer, token: &str) -> Vec<u8> {
    let text = response.body.replace("{token}", token);
    let padding = padding(response.padding_kib, response.padding);
    if text.contains("{padding}") {
        text.replace("{padding}", &padding).into_bytes()
    } else {
        format!("{padding}{text}").into_bytes()
    }
}

/// `kib` KiB of 64-byte lines: comments, or rules no page of a case matches.
fn padding(kib: u32, kind: PaddingKind) -> String {
    let mut out = String::with_capacity(kib as usize * 1024);
    for n in 0..kib * 16 {
        let start = match kind {
            PaddingKind::Comments => format!("# padding {n:06} "),
            PaddingKind::Rules => format!("Disallow: /filler/{n:06}/"),
        };
        out.push_str(&start);
        out.push_str(&"x".repeat(63 - start.len()));
        out.push('\n');
    }
    out
}

fn head_of(status: u16, content_type: &str, headers: &[(String, String)], length: usize) -> String {
    let mut head = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\nContent-Length: {length}\r\nConnection: close\r\n",
        reason(status)
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    head
}

fn send(
    stream: &mut TcpStream,
    status: u16,
    content_type: &str,
    headers: &[(String, String)],
    body: &[u8],
) -> String {
    let head = head_of(status, content_type, headers, body.len());
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
    let _ = stream.flush();
    let _ = stream.shutdown(Shutdown::Write);
    match headers.iter().find(|(k, _)| k == "Location") {
        Some((_, location)) => format!("{status} -> {location}"),
        None => format!("{status} {content_type}, {} bytes", body.len()),
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        410 => "Gone",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_is_exactly_the_size_asked_and_the_rule_comes_after_it() {
        let response = SiteAnswer {
            body: "User-agent: *\n{padding}Disallow: /{token}\n".to_owned(),
            padding_kib: 499,
            padding: PaddingKind::Rules,
            ..SiteAnswer::default()
        };
        let body = String::from_utf8(body_of(&response, "FooBot")).unwrap();
        let rule = body.find("Disallow: /FooBot").unwrap();
        assert_eq!(rule, "User-agent: *\n".len() + 499 * 1024);
        assert!(body.lines().all(|l| l.len() <= 63));
    }
}
