//! The loopback site a crawler is let loose on for one case: three authorities on loopback
//! addresses, each a `TcpListener` on an ephemeral port, answering from the case and logging every
//! request. `home` (127.0.0.1) serves the seed page and the control and has no robots.txt; `a`
//! (127.0.0.2) and `b` (127.0.0.3) are the authorities under test. Where the system cannot bind
//! those addresses (only Linux routes all of 127.0.0.0/8 to the loopback interface), `a` and `b`
//! take other ports of 127.0.0.1: still other authorities, as RFC 9309 counts them.
//!
//! Everything is bounded: at most `max_requests` requests are answered (the next one marks the
//! site flooded and is dropped), at most 64 connections are open at once (one more marks it
//! flooded too), a connection is closed after one answer or after a few idle seconds, and
//! [`Site::stop`] ends every thread within a tenth of a second, ports included.

pub mod answer;

use std::io::{self, Read};
use std::net::{Ipv4Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use robotstxt_suite::visible::Outside;
use serde::Serialize;

use crate::case::{AccessCase, AuthorityId};

/// How often a waiting thread looks at the stop flag.
const TICK: Duration = Duration::from_millis(20);
/// A request head longer than this is answered 431 and closed.
const MAX_HEAD: usize = 16 * 1024;
/// A connection that sends nothing for this long is closed.
const IDLE: Duration = Duration::from_secs(5);
/// Connections open at once; one more is closed at once. A crawler opening connections and
/// sending nothing would otherwise hold a thread each until they idle out.
const MAX_OPEN: usize = 64;

/// Which of the site's authorities a request reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Where {
    Home,
    A,
    B,
}

impl Where {
    pub fn of(side: AuthorityId) -> Where {
        match side {
            AuthorityId::A => Where::A,
            AuthorityId::B => Where::B,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Where::Home => "home",
            Where::A => "a",
            Where::B => "b",
        }
    }
}

/// One request, as the site saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LoggedRequest {
    /// Milliseconds since the site started.
    pub at_ms: u64,
    pub authority: Where,
    /// `host:port` of the listener that took it.
    pub host: String,
    /// The request line's method and target and the `User-agent` header: the crawler's words,
    /// outside text.
    pub method: Outside,
    pub target: Outside,
    pub user_agent: Option<Outside>,
    /// What was answered: `200`, `301 -> http://...`, `reset`, `stall`, ...
    pub answer: String,
}

impl LoggedRequest {
    /// The target without its query.
    pub fn path(&self) -> &str {
        let target = self.target.raw();
        target.split('?').next().unwrap_or(target)
    }

    /// The request on one line, the crawler's words and the case's (a `Location` in `answer`)
    /// shown made visible.
    pub fn shown(&self) -> String {
        // Quoted, and then shown: quoting leaves a runner command (`##[`) as it is.
        let agent = (self.user_agent.as_ref()).map(|u| Outside::new(format!("{:?}", u.raw())));
        format!(
            "{:>6} ms  {:<4} {:<21} {} {}  UA {}  -> {}",
            self.at_ms,
            self.authority.label(),
            self.host,
            self.method,
            self.target,
            agent.map_or("(none)".to_owned(), |u| u.to_string()),
            Outside::from(self.answer.as_str())
        )
    }
}

/// What the site was told to serve, shared with its threads.
struct Shared {
    case: AccessCase,
    /// The crawler's product token, written into bodies at `{token}`.
    token: String,
    addresses: [SocketAddr; 3],
    started: Instant,
    stop: AtomicBool,
    flooded: AtomicBool,
    max_requests: usize,
    log: Mutex<Vec<LoggedRequest>>,
    /// How many times each authority under test was asked for `/robots.txt`.
    robots_fetches: [AtomicUsize; 2],
    /// Connection threads still running.
    live: AtomicUsize,
}

/// A running site. Dropping it stops it.
pub struct Site {
    shared: Arc<Shared>,
    listeners: Vec<JoinHandle<()>>,
}

impl Site {
    /// Binds the three authorities and starts answering.
    pub fn start(case: &AccessCase, token: &str, max_requests: usize) -> io::Result<Site> {
        let home = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
        let a = bind_or_localhost(Ipv4Addr::new(127, 0, 0, 2))?;
        let b = bind_or_localhost(Ipv4Addr::new(127, 0, 0, 3))?;
        let addresses = [home.local_addr()?, a.local_addr()?, b.local_addr()?];
        let shared = Arc::new(Shared {
            case: case.clone(),
            token: token.to_owned(),
            addresses,
            started: Instant::now(),
            stop: AtomicBool::new(false),
            flooded: AtomicBool::new(false),
            max_requests,
            log: Mutex::new(Vec::new()),
            robots_fetches: [AtomicUsize::new(0), AtomicUsize::new(0)],
            live: AtomicUsize::new(0),
        });
        let mut listeners = Vec::new();
        for (listener, at) in [(home, Where::Home), (a, Where::A), (b, Where::B)] {
            listener.set_nonblocking(true)?;
            let shared = Arc::clone(&shared);
            listeners.push(
                thread::Builder::new()
                    .name(format!("site-{}", at.label()))
                    .spawn(move || accept_loop(&listener, at, &shared))?,
            );
        }
        Ok(Site { shared, listeners })
    }

    /// The seed URL a crawler starts from.
    pub fn seed_url(&self) -> String {
        format!("http://{}/", self.shared.addresses[0])
    }

    pub fn address(&self, at: Where) -> SocketAddr {
        self.shared.addresses[at as usize]
    }

    /// Whether more requests came than the site answers.
    pub fn flooded(&self) -> bool {
        self.shared.flooded.load(Ordering::SeqCst)
    }

    pub fn requests(&self) -> usize {
        self.shared.log.lock().map_or(0, |l| l.len())
    }

    /// Stops every thread (the ports close with them) and returns the log.
    pub fn stop(mut self) -> Vec<LoggedRequest> {
        self.halt();
        let log = self
            .shared
            .log
            .lock()
            .map(|l| l.clone())
            .unwrap_or_default();
        log
    }

    fn halt(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        for listener in self.listeners.drain(..) {
            let _ = listener.join();
        }
        // Connection threads look at the flag every tick; a stalled one ends with them.
        let deadline = Instant::now() + Duration::from_secs(2);
        while self.shared.live.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
            thread::sleep(TICK);
        }
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        self.halt();
    }
}

fn bind_or_localhost(ip: Ipv4Addr) -> io::Result<TcpListener> {
    TcpListener::bind((ip, 0)).or_else(|_| TcpListener::bind((Ipv4Addr::LOCALHOST, 0)))
}

fn accept_loop(listener: &TcpListener, at: Where, shared: &Arc<Shared>) {
    while !shared.stop.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((stream, _)) if shared.live.load(Ordering::SeqCst) >= MAX_OPEN => {
                shared.flooded.store(true, Ordering::SeqCst);
                drop(stream);
            }
            Ok((stream, _)) => {
                shared.live.fetch_add(1, Ordering::SeqCst);
                let connection = Arc::clone(shared);
                let spawned = thread::Builder::new()
                    .name("site-connection".to_owned())
                    .spawn(move || {
                        serve_connection(stream, at, &connection);
                        connection.live.fetch_sub(1, Ordering::SeqCst);
                    });
                if spawned.is_err() {
                    shared.live.fetch_sub(1, Ordering::SeqCst);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => thread::sleep(TICK),
            Err(_) => thread::sleep(TICK),
        }
    }
}

/// The parts of a request head the site looks at.
struct Head {
    method: String,
    target: String,
    user_agent: Option<String>,
}

fn serve_connection(mut stream: TcpStream, at: Where, shared: &Shared) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(TICK));
    let Some(head) = read_head(&mut stream, shared) else {
        return;
    };
    let mut log = match shared.log.lock() {
        Ok(log) => log,
        Err(_) => return,
    };
    if log.len() >= shared.max_requests {
        shared.flooded.store(true, Ordering::SeqCst);
        drop(log);
        let _ = stream.shutdown(Shutdown::Both);
        return;
    }
    let index = log.len();
    let at_ms = u64::try_from(shared.started.elapsed().as_millis()).unwrap_or(u64::MAX);
    log.push(LoggedRequest {
        at_ms,
        authority: at,
        host: shared.addresses[at as usize].to_string(),
        method: head.method.as_str().into(),
        target: head.target.as_str().into(),
        user_agent: head.user_agent.as_deref().map(Outside::from),
        answer: String::new(),
    });
    drop(log);
    let summary = answer::answer(&mut stream, at, &head, shared);
    if let Ok(mut log) = shared.log.lock() {
        if let Some(entry) = log.get_mut(index) {
            entry.answer = summary;
        }
    }
}

/// Reads up to the blank line ending the head; `None` on a closed, idle, oversized or garbled
/// connection, or when the site stops.
fn read_head(stream: &mut TcpStream, shared: &Shared) -> Option<Head> {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 2048];
    let since = Instant::now();
    loop {
        if shared.stop.load(Ordering::SeqCst) || since.elapsed() > IDLE || buffer.len() > MAX_HEAD {
            return None;
        }
        match stream.read(&mut chunk) {
            Ok(0) => return None,
            Ok(n) => buffer.extend_from_slice(&chunk[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                continue
            }
            Err(_) => return None,
        }
        if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            let text = String::from_utf8_lossy(&buffer[..end]);
            let mut lines = text.split("\r\n");
            let mut request_line = lines.next()?.split(' ');
            let method = request_line.next()?.to_owned();
            let mut target = request_line.next()?.to_owned();
            // An absolute-form target (a proxy's form) is logged by its path.
            if let Some(rest) = target.strip_prefix("http://") {
                target = rest
                    .find('/')
                    .map_or("/".to_owned(), |i| rest[i..].to_owned());
            }
            let user_agent = lines
                .filter_map(|l| l.split_once(':'))
                .find(|(name, _)| name.trim().eq_ignore_ascii_case("user-agent"))
                .map(|(_, value)| value.trim().to_owned());
            return Some(Head {
                method,
                target,
                user_agent,
            });
        }
    }
}

/// The URL of `path` on `at`.
fn url_of(shared: &Shared, at: Where, path: &str) -> String {
    format!("http://{}{path}", shared.addresses[at as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::parse;
    use std::io::Write;
    use std::path::Path;

    fn site() -> Site {
        let text = r#"cases:
  - name: ok
    spec: { norobots-1994: 'Disallow: "a"', rfc9309: 'RFC 9309 2.3: "a"' }
    a: { robots: [ { status: 503 }, { body: "User-agent: *\nDisallow: /{token}\n" } ] }
    checks:
      - { url: a:/x, expect: fetched }
"#;
        let case = parse(text, Path::new("t.yaml"), "t").unwrap().remove(0);
        Site::start(&case, "FooBot", 5).unwrap()
    }

    fn get(address: SocketAddr, target: &str) -> String {
        let mut stream = TcpStream::connect(address).unwrap();
        write!(
            stream,
            "GET {target} HTTP/1.1\r\nHost: x\r\nUser-Agent: FooBot/1\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        answer
    }

    #[test]
    fn robots_txt_answers_in_turn_and_every_request_is_logged() {
        let site = site();
        let a = site.address(Where::A);
        assert!(get(a, "/robots.txt").starts_with("HTTP/1.1 503"));
        let second = get(a, "/robots.txt");
        assert!(second.ends_with("Disallow: /FooBot\n"), "{second}");
        assert!(
            get(a, "/robots.txt").starts_with("HTTP/1.1 200"),
            "the last answer repeats"
        );
        let log = site.stop();
        assert_eq!(log.len(), 3);
        assert_eq!(
            log[0].user_agent.as_ref().map(Outside::raw),
            Some("FooBot/1")
        );
        assert_eq!(log[0].answer, "503 text/plain, 0 bytes");
    }

    #[test]
    fn a_logged_request_shows_the_crawlers_words_visibly() {
        let request = LoggedRequest {
            at_ms: 7,
            authority: Where::A,
            host: "127.0.0.1:1".to_owned(),
            method: "GET".into(),
            target: "/\x1b]0;x\x07".into(),
            user_agent: Some("##[error]\u{202e}".into()),
            answer: "200".to_owned(),
        };
        let line = request.shown();
        assert!(!line.contains(['\x1b', '\x07', '\u{202e}']), "{line}");
        assert!(line.contains("/␛]0;x␇") && !line.contains("##["), "{line}");
        assert_eq!(request.target.raw(), "/\x1b]0;x\x07");
    }

    #[test]
    fn past_the_request_cap_the_site_is_flooded_and_answers_nothing() {
        let site = site();
        let home = site.address(Where::Home);
        for _ in 0..5 {
            assert!(get(home, "/control").starts_with("HTTP/1.1 200"));
        }
        assert_eq!(get(home, "/control"), "");
        assert!(site.flooded());
        assert_eq!(site.stop().len(), 5);
    }

    #[test]
    fn idle_connections_past_the_cap_are_refused_and_stop_frees_the_ports() {
        let site = site();
        let home = site.address(Where::Home);
        let idle: Vec<TcpStream> = (0..MAX_OPEN + 8)
            .map(|_| TcpStream::connect(home).unwrap())
            .collect();
        let deadline = Instant::now() + Duration::from_secs(5);
        while !site.flooded() && Instant::now() < deadline {
            thread::sleep(TICK);
        }
        assert!(site.flooded());
        let started = Instant::now();
        drop(site);
        assert!(started.elapsed() < Duration::from_secs(3));
        assert!(TcpStream::connect(home).is_err());
        drop(idle);
    }
}
