//! The census sections of `survey.md`: what was read and skipped, the status shares of fetches
//! and of hosts, and every adapter's disagreement rates per body and per host.

use std::fmt::Write as _;

use super::census_record::Census;
use super::http::MAX_BODY;
use super::markdown::cell;
use super::weights::HostRates;
use super::{AdapterSurvey, Survey};
use robotstxt_runtime::markup::md_code;

/// The census section, after the survey's main table.
pub fn section(survey: &Survey, census: &Census) -> String {
    let mut out = String::from("\n## Census\n\n");
    let records: Vec<String> = census
        .records
        .iter()
        .map(|(kind, n)| format!("{n} {kind}"))
        .collect();
    let read: u64 = census.records.values().sum();
    let _ = writeln!(
        out,
        "{} WARC file(s) read: {read} records ({}).",
        census.warc_files,
        if records.is_empty() {
            "none".to_owned()
        } else {
            records.join(", ")
        }
    );
    if !census.unreadable.is_empty() {
        let _ = writeln!(
            out,
            "\n**{} WARC file(s) could not be read**, and are in no count:\n",
            census.unreadable.len()
        );
        for u in &census.unreadable {
            let _ = writeln!(out, "- {}: {}", md_code(&u.warc), cell(&u.error));
        }
    }
    if !census.faults.is_empty() {
        let kinds: Vec<String> = census
            .faults
            .iter()
            .map(|(kind, n)| format!("{kind} {n}"))
            .collect();
        let _ = writeln!(
            out,
            "\n{} record(s) were skipped, each counted and none ending the census: {}. The first \
             of each kind:\n",
            census.faults.values().sum::<u64>(),
            kinds.join(", ")
        );
        out.push_str(
            "| kind | WARC file | offset | record | URI | why |\n|---|---|--:|---|---|---|\n",
        );
        for e in &census.fault_examples {
            let f = &e.fault;
            let offset = match f.place.index {
                0 => f.place.offset.to_string(),
                i => format!("{} (record {} of the member)", f.place.offset, i + 1),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {offset} | {} | {} | {} |",
                f.kind.name(),
                md_code(&e.warc),
                f.record_id.as_deref().map_or(String::new(), md_code),
                f.target.as_deref().map_or(String::new(), md_code),
                cell(&f.detail)
            );
        }
    }
    let (f, h) = (&census.fetches, &census.hosts);
    let _ = writeln!(
        out,
        "\n### Fetches and hosts by status\n\nEach fetch is a `response` record. Each host \
         (`scheme://host[:port]`: http and https apart, as RFC 9309 §2.3 scopes a robots.txt \
         file) counts once, by its last capture. The status is read as RFC 9309 §2.3.1 reads it.\n"
    );
    out.push_str("| status | RFC 9309 §2.3.1 | fetches | share | hosts | share |\n|---|---|--:|--:|--:|--:|\n");
    let rows = [
        ("2xx", "success: the body is parsed", f.success, h.success),
        (
            "3xx",
            "redirect: followed (at least five hops)",
            f.redirect,
            h.redirect,
        ),
        (
            "4xx",
            "unavailable: any resource may be accessed",
            f.unavailable,
            h.unavailable,
        ),
        (
            "5xx",
            "unreachable: complete disallow assumed",
            f.unreachable,
            h.unreachable,
        ),
        ("other", "not a final status", f.other, h.other),
    ];
    for (status, meaning, fetches, hosts) in rows {
        let _ = writeln!(
            out,
            "| {status} | {meaning} | {fetches} | {} | {hosts} | {} |",
            percent(fetches, f.total()),
            percent(hosts, h.total())
        );
    }
    let _ = writeln!(out, "| all | | {} | | {} | |", f.total(), h.total());
    let _ =
        writeln!(
        out,
        "\nThe {} hosts answering 2xx serve {} distinct bodies (by the SHA-256 of the body once \
         transfer and content codings are removed); each body is surveyed once and weighted by \
         the hosts that serve it, {:.2} hosts per body. {} bodies were longer than RFC 9309's \
         parse limit of {} KiB and were surveyed as a crawler reads them: their first {} KiB.",
        h.success,
        survey.files,
        if survey.files == 0 { 0.0 } else { h.success as f64 / survey.files as f64 },
        census.cut,
        MAX_BODY >> 10,
        MAX_BODY >> 10,
    );
    out.push_str(
        "\n### Disagreement per body and per host\n\nPer body: each distinct body once. Per host: \
         each body once for every host that serves it, so a parser that stumbles on one \
         hosting company's file is charged for all its sites. Scored and open-point \
         disagreements as above; hosts not answered are those whose body the parser refused or \
         was lost to a fault.\n\n",
    );
    out.push_str(
        "| adapter | bodies answered | scored: bodies | share | hosts answered | scored: hosts | \
         share | open points: hosts | share | differing at all: hosts | share | hosts not answered |\n\
         |---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
    );
    for a in &survey.adapters {
        let r = a.hosts.unwrap_or_default();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(a.adapter.raw()),
            a.files,
            a.disagreements.files,
            percent(a.disagreements.files as u64, a.files as u64),
            r.answered,
            r.disagreements,
            percent(r.disagreements, r.answered),
            r.open_points,
            percent(r.open_points, r.answered),
            r.differing,
            percent(r.differing, r.answered),
            r.not_answered,
        );
    }
    out
}

/// The bodies an adapter disagrees on that the most hosts serve, for its causes section.
pub fn served(out: &mut String, a: &AdapterSurvey) {
    if a.served.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\nThe disagreeing bodies served by the most hosts (of {} hosts with a scored \
         disagreement):\n",
        a.hosts.map_or(0, |r: HostRates| r.disagreements)
    );
    for s in &a.served {
        let _ = writeln!(
            out,
            "- {} body, served by {} hosts: {} scored checks; {}",
            md_code(&s.body),
            s.hosts,
            s.checks,
            cell(&s.signature)
        );
    }
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "–".to_owned()
    } else {
        format!("{:.1}%", 100.0 * part as f64 / whole as f64)
    }
}
