//! The carried crawlers under `crawlers/` load, each with what its report shows, and from a
//! relative folder name too: a crawler runs in a folder of its own, so its `{dir}` must be
//! absolute.

use std::path::Path;

use robotstxt_crawl::app::carried;
use robotstxt_crawl::command::CommandTemplate;

#[test]
fn every_carried_crawler_loads_with_an_absolute_folder_and_its_departures() {
    // Tests run in the crate's folder: `../crawlers` is relative to it.
    let crawlers = carried(Some(Path::new("../crawlers")), None).expect("the manifests load");
    let names: Vec<&str> = crawlers.iter().map(|c| c.manifest.name.raw()).collect();
    assert!(names.len() >= 6, "{names:?}");
    for crawler in &crawlers {
        assert!(crawler.dir.is_absolute(), "{}", crawler.dir.display());
        let test = crawler.under_test(None);
        assert!(
            !test.departures.is_empty(),
            "{}: no departures listed",
            test.name
        );
        let CommandTemplate::Argv(argv) = &test.command else {
            panic!("{}: a carried crawler's command is an argv", test.name);
        };
        assert!(
            argv.iter()
                .all(|a| !a.contains("{dir}") && !a.contains("{cache}")),
            "{argv:?}"
        );
        assert!(argv.iter().any(|a| a.contains("{url}")), "{argv:?}");
    }
}
