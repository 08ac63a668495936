//! `robotstxt-crawl`: the crawl mode of robotstxt-test. The parser corpus checks what a parser
//! answers; this checks what a crawler fetches. For each access case (`cases/access/`, [`case`])
//! a loopback site ([`site`]) answers `/robots.txt` as the case says (a status, a body, a
//! redirect chain, a fault), a real crawler is started fresh on its seed page ([`process`],
//! [`session`]), and every request it makes is logged and scored ([`score`]): which pages it
//! fetched, which it left alone, and whether it asked for robots.txt first.
//!
//! Carried crawlers are folders under `crawlers/` ([`crawler`]), installed through the runtime's
//! install code, cache and lock, as adapters are. The application's `crawl` and `crawlers`
//! commands are thin: they parse flags and call [`app`].

#![forbid(unsafe_code)]

pub mod app;
pub mod case;
pub mod command;
pub mod crawler;
pub mod expectations;
pub mod output;
pub mod pages;
pub mod process;
pub mod runner;
pub mod score;
pub mod session;
pub mod site;
