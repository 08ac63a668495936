//! The captures a census plan counts in one WARC file, held compactly: a plan of a large file
//! holds millions of lines, and each is kept as 24 bytes in one sorted array (a map of the
//! same entries took about six times the plan's size).

use serde::{Deserialize, Serialize};

use super::warc::Place;

/// A later line of a plan: one capture that is its host's last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanEntry {
    #[serde(flatten)]
    pub place: Place,
    pub status: u16,
    /// Set on the capture that stands for its body: the hosts that serve the body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hosts: Option<u64>,
}

/// One planned capture, packed: its place, its status, and the hosts its body stands for (0 for
/// none: a body stands for at least one host).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Packed {
    offset: u64,
    hosts: u64,
    index: u32,
    status: u16,
}

impl Packed {
    fn of(entry: &PlanEntry) -> Packed {
        Packed {
            offset: entry.place.offset,
            hosts: entry.hosts.unwrap_or(0),
            index: entry.place.index,
            status: entry.status,
        }
    }

    fn place(&self) -> Place {
        Place {
            offset: self.offset,
            index: self.index,
        }
    }

    fn entry(&self) -> PlanEntry {
        PlanEntry {
            place: self.place(),
            status: self.status,
            hosts: (self.hosts > 0).then_some(self.hosts),
        }
    }
}

/// The planned captures of one file, by place.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanEntries {
    /// Sorted by place once [`PlanEntries::sorted`] ran; at most one per place.
    packed: Vec<Packed>,
}

/// A place planned twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlannedTwice(pub Place);

impl PlanEntries {
    /// An entry more, in any order; [`PlanEntries::sorted`] makes them ready to look up. An
    /// entry whose `hosts` is `Some(0)` is kept as one with none.
    pub fn push(&mut self, entry: &PlanEntry) {
        self.packed.push(Packed::of(entry));
    }

    /// The entries sorted by place, or the first place that is planned twice.
    pub fn sorted(mut self) -> Result<PlanEntries, PlannedTwice> {
        self.packed.sort_unstable_by_key(|p| (p.offset, p.index));
        if let Some(twice) = self
            .packed
            .windows(2)
            .find(|w| w[0].place() == w[1].place())
        {
            return Err(PlannedTwice(twice[0].place()));
        }
        self.packed.shrink_to_fit();
        Ok(self)
    }

    /// The entry planned at `place`.
    pub fn get(&self, place: &Place) -> Option<PlanEntry> {
        self.find(place).map(|i| self.packed[i].entry())
    }

    /// Sets the hosts the body at `place` stands for; `false` when nothing is planned there.
    pub fn set_hosts(&mut self, place: &Place, hosts: u64) -> bool {
        match self.find(place) {
            Some(i) => {
                self.packed[i].hosts = hosts;
                true
            }
            None => false,
        }
    }

    fn find(&self, place: &Place) -> Option<usize> {
        (self.packed)
            .binary_search_by_key(&(place.offset, place.index), |p| (p.offset, p.index))
            .ok()
    }

    pub fn len(&self) -> usize {
        self.packed.len()
    }

    pub fn is_empty(&self) -> bool {
        self.packed.is_empty()
    }
}

impl FromIterator<PlanEntry> for PlanEntries {
    /// Entries in any order, sorted; a place given twice keeps one of them.
    fn from_iter<I: IntoIterator<Item = PlanEntry>>(entries: I) -> PlanEntries {
        let mut all = PlanEntries::default();
        for entry in entries {
            all.push(&entry);
        }
        all.packed.sort_unstable_by_key(|p| (p.offset, p.index));
        all.packed.dedup_by_key(|p| (p.offset, p.index));
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(offset: u64, index: u32, hosts: Option<u64>) -> PlanEntry {
        PlanEntry {
            place: Place { offset, index },
            status: 200,
            hosts,
        }
    }

    #[test]
    fn entries_are_found_by_place_and_a_place_planned_twice_is_named() {
        let mut entries = PlanEntries::default();
        for e in [
            entry(900, 0, Some(3)),
            entry(5, 1, None),
            entry(5, 0, Some(1)),
        ] {
            entries.push(&e);
        }
        let mut entries = entries.sorted().unwrap();
        assert_eq!(entries.len(), 3);
        assert_eq!(
            entries.get(&Place {
                offset: 900,
                index: 0
            }),
            Some(entry(900, 0, Some(3)))
        );
        assert_eq!(
            entries.get(&Place {
                offset: 5,
                index: 1
            }),
            Some(entry(5, 1, None))
        );
        assert_eq!(
            entries.get(&Place {
                offset: 6,
                index: 0
            }),
            None
        );
        assert!(entries.set_hosts(
            &Place {
                offset: 5,
                index: 1
            },
            7
        ));
        assert_eq!(
            entries
                .get(&Place {
                    offset: 5,
                    index: 1
                })
                .unwrap()
                .hosts,
            Some(7)
        );
        assert!(!entries.set_hosts(
            &Place {
                offset: 1,
                index: 0
            },
            7
        ));

        let mut twice = PlanEntries::default();
        for e in [entry(1, 0, None), entry(2, 0, None), entry(1, 0, Some(2))] {
            twice.push(&e);
        }
        assert_eq!(
            twice.sorted(),
            Err(PlannedTwice(Place {
                offset: 1,
                index: 0
            }))
        );
        assert_eq!(std::mem::size_of::<Packed>(), 24);
    }
}
