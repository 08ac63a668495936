//! Where a message an adapter sent departs from what the protocol's types read in it: a field
//! they do not hold, or a value of another kind. `adapters check` names each one (a few, the rest
//! counted), each quote cut as an error text is.

use serde::Serialize;
use serde_json::Value;

use crate::limits::cap_text;

/// Departures from the protocol's types named in one finding; the others are counted.
const DEPARTURES: usize = 8;

/// Where what the adapter sent departs from `message`, the message the protocol's types read in
/// it: a field it does not hold, or a value of another kind (an `error` that is not a string).
pub(super) fn departures(line: &[u8], message: &impl Serialize) -> Vec<String> {
    let (Ok(sent), Ok(read)) = (
        serde_json::from_slice::<Value>(line),
        serde_json::to_value(message),
    ) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    compare("", &sent, &read, &mut found);
    // A message of a million unknown fields is said in a few: the rest are counted.
    if found.len() > DEPARTURES {
        let more = found.len() - DEPARTURES;
        found.truncate(DEPARTURES);
        found.push(format!("{more} more"));
    }
    found
}

fn compare(at: &str, sent: &Value, read: &Value, found: &mut Vec<String>) {
    match (sent, read) {
        (Value::Object(sent), Value::Object(read)) => {
            for (key, value) in sent {
                let path = if at.is_empty() {
                    key.clone()
                } else {
                    format!("{at}.{key}")
                };
                match read.get(key) {
                    Some(read) => compare(&path, value, read, found),
                    None => found.push(format!("unknown field `{}`", cap_text(&path))),
                }
            }
        }
        (Value::Array(sent), Value::Array(read)) if sent.len() == read.len() => {
            for (i, (sent, read)) in sent.iter().zip(read).enumerate() {
                compare(&format!("{at}[{i}]"), sent, read, found);
            }
        }
        _ if sent == read => {}
        _ => {
            let kind = match read {
                Value::String(_) => "a string",
                Value::Array(_) => "an array",
                Value::Object(_) => "an object",
                Value::Number(_) => "a number",
                Value::Bool(_) => "true or false",
                Value::Null => "null",
            };
            // What the adapter sent, cut as an error text is: an `error` object may be megabytes.
            found.push(format!(
                "`{at}` is {}, not {kind}",
                cap_text(&sent.to_string())
            ));
        }
    }
}
