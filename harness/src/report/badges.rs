//! A badge per adapter, `robotstxt-test rfc9309 | 98.6%` coloured by score: an SVG to link to,
//! and beside it the shields.io endpoint JSON (`https://img.shields.io/endpoint?url=...`) for
//! those who would rather have shields.io draw it.

use serde::Serialize;

use robotstxt_runtime::markup;

use super::AdapterRun;

/// The badge's two halves and its colour.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Badge {
    /// Always 1: the shields.io endpoint schema.
    pub schema_version: u32,
    pub label: String,
    pub message: String,
    /// A shields.io colour name, which the SVG draws as its hexadecimal value.
    pub color: &'static str,
}

/// Colours by score, best first: the lowest percentage each needs.
const COLOURS: [(f64, &str, &str); 6] = [
    (99.0, "brightgreen", "#4c1"),
    (95.0, "green", "#97ca00"),
    (90.0, "yellowgreen", "#a4a61d"),
    (80.0, "yellow", "#dfb317"),
    (60.0, "orange", "#fe7d37"),
    (0.0, "red", "#e05d44"),
];

impl Badge {
    /// The badge of `run`: its headline score (decided checks under the profile it claims), of
    /// the corpus at `suite_version`.
    pub fn of(run: &AdapterRun, suite_version: &str) -> Badge {
        let headline = run.headline(suite_version);
        let percent = headline.ratio().filter(|_| run.has_data());
        Badge {
            schema_version: 1,
            label: format!(
                "robotstxt-test suite {} ({})",
                headline.suite_version, headline.profile
            ),
            // The headline's own text, as `run` and the pages show it.
            message: percent.map_or_else(
                || "no data".to_owned(),
                |_| {
                    format!(
                        "{} {}",
                        headline.percent(),
                        robotstxt_suite::headline::LABEL
                    )
                },
            ),
            color: percent.map_or("lightgrey", |p| {
                COLOURS
                    .iter()
                    .find(|(least, _, _)| p >= *least)
                    .map_or("red", |c| c.1)
            }),
        }
    }

    fn hex(&self) -> &'static str {
        (COLOURS.iter().find(|c| c.1 == self.color)).map_or("#9f9f9f", |c| c.2)
    }

    /// The endpoint JSON.
    pub fn json(&self) -> String {
        robotstxt_suite::visible::json_text(self).expect("a badge serializes") + "\n"
    }

    /// The badge drawn flat, as shields.io draws it: widths from the text's length at 11px.
    pub fn svg(&self) -> String {
        let width = |text: &str| 10 + (text.chars().count() as f64 * 6.5).ceil() as usize;
        let (left, right) = (width(&self.label), width(&self.message));
        let total = left + right;
        let (label, message) = (markup::xml(&self.label), markup::xml(&self.message));
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="20" role="img" aria-label="{label}: {message}">
<title>{label}: {message}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="{total}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="{left}" height="20" fill="#555"/><rect x="{left}" width="{right}" height="20" fill="{colour}"/><rect width="{total}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text x="{lx}" y="14">{label}</text><text x="{rx}" y="14">{message}</text>
</g>
</svg>
"##,
            colour = self.hex(),
            lx = left as f64 / 2.0,
            rx = left as f64 + right as f64 / 2.0,
        )
    }
}

/// The badge files of every adapter, `badges/<page name>.svg` and `.json`.
pub fn files(
    adapters: &[AdapterRun],
    names: &[String],
    suite_version: &str,
) -> Vec<(String, Vec<u8>)> {
    adapters
        .iter()
        .zip(names)
        .flat_map(|(run, name)| {
            let badge = Badge::of(run, suite_version);
            [
                (format!("badges/{name}.svg"), badge.svg().into_bytes()),
                (format!("badges/{name}.json"), badge.json().into_bytes()),
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn badge(message: &str, color: &'static str) -> Badge {
        Badge {
            schema_version: 1,
            label: "robotstxt-test rfc9309".to_owned(),
            message: message.to_owned(),
            color,
        }
    }

    #[test]
    fn the_svg_names_the_score_and_escapes_the_label() {
        let mut b = badge("98.6%", "green");
        let svg = b.svg();
        assert!(svg.contains(">98.6%</text>"), "{svg}");
        assert!(svg.contains("fill=\"#97ca00\""), "{svg}");
        b.label = "a<b>&\"c\"".to_owned();
        assert!(
            b.svg().contains("a&lt;b&gt;&amp;&quot;c&quot;"),
            "{}",
            b.svg()
        );
        assert_eq!(
            badge("no data", "lightgrey").json(),
            "{\n  \"schemaVersion\": 1,\n  \"label\": \"robotstxt-test rfc9309\",\n  \"message\": \"no data\",\n  \"color\": \"lightgrey\"\n}\n"
        );
    }
}
