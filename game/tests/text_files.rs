//! Every text file the game reads takes what players' editors write: a byte-order mark at the
//! start and lone-CR line ends (old Mac editors) read as the same file with `\n` ends, in the
//! data files, the settings, input scripts and replays alike. And the data files' messages say
//! which file to move when something other than a file is in its place.

use crate::common;

use common::{TempDir, record_bot_run};
use game::input::InputScript;
use game::player_data::progress::Progress;
use game::player_data::settings::{Overrides, SettingsFile};
use game::player_data::{BestTimes, Store};
use game::replay::Replay;

/// `text` as an editor might save it: with a BOM, with lone CRs, and both.
fn as_editors_write(text: &str) -> [String; 3] {
    let cr = text.replace('\n', "\r");
    [
        format!("\u{feff}{text}"),
        cr.clone(),
        format!("\u{feff}{cr}"),
    ]
}

#[test]
fn data_files_with_a_bom_or_lone_crs_read_as_written() {
    let best = "\"first_swing.ron\" = 713\n\"vault.ron\" = 900\n";
    let progress = "\"first_swing.ron\"\n\"iron_bands.ron\"\n";
    let settings = "sound = off\nvolume = 30\n";
    for n in 0..3 {
        let dir = TempDir::new("editors-data");
        let store = Store::at(&dir.0);
        std::fs::write(store.path(), &as_editors_write(best)[n]).unwrap();
        std::fs::write(dir.0.join("progress.txt"), &as_editors_write(progress)[n]).unwrap();
        std::fs::write(dir.0.join("settings.txt"), &as_editors_write(settings)[n]).unwrap();
        let (times, problem) = BestTimes::load(&store);
        assert!(problem.is_none(), "{n}: {problem:?}");
        assert_eq!(times.best("first_swing.ron"), Some(713));
        assert_eq!(times.best("vault.ron"), Some(900));
        let (cleared, problem) = Progress::load(&store);
        assert!(problem.is_none(), "{n}: {problem:?}");
        assert!(cleared.is_cleared("first_swing.ron") && cleared.is_cleared("iron_bands.ron"));
        let (file, problem) = SettingsFile::load(&store, Overrides::default());
        assert!(problem.is_none(), "{n}: {problem:?}");
        assert!(!file.current().sound);
        assert_eq!(file.current().volume, 30);
    }
}

#[test]
fn input_scripts_and_replays_with_a_bom_or_lone_crs_read_as_written() {
    let script = "20 up\n10 right attack\n";
    let want = InputScript::parse(script).unwrap();
    for text in as_editors_write(script) {
        let got = InputScript::parse(&text).unwrap_or_else(|e| panic!("{text:?}: {e:?}"));
        assert_eq!(got.len(), want.len());
        assert!((0..want.len()).all(|s| got.input_at(s) == want.input_at(s)));
    }
    let dir = TempDir::new("editors-replay");
    let file = dir.path("bot.replay");
    record_bot_run(&file, "700", &[]);
    let text = std::fs::read_to_string(&file).unwrap();
    let want = Replay::parse(&text).unwrap();
    for edited in as_editors_write(&text) {
        let got = Replay::parse(&edited).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(got.to_text(), want.to_text());
    }
}

#[test]
fn a_folder_or_fifo_in_a_data_files_place_is_named_and_never_linked_aside() {
    let dir = TempDir::new("data-in-the-way");
    let store = Store::at(&dir.0);
    std::fs::create_dir(store.path()).unwrap();
    let (mut best, problem) = BestTimes::load(&store);
    let said = problem.expect("reported").to_string();
    assert!(
        said.contains("best_times.txt") && said.contains("a directory") && said.contains("moved"),
        "{said}"
    );
    best.record("vault.ron", 900).unwrap();
    let said = best.save().unwrap_err().to_string();
    assert!(
        said.contains("best_times.txt: it is a directory") && said.contains("move or remove it"),
        "{said}"
    );
    assert!(!dir.0.join("best_times.damaged.txt").exists());

    let fifo = dir.0.join("progress.txt");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let (mut progress, problem) = Progress::load(&store);
    assert!(problem.is_some_and(|p| p.to_string().contains("named pipe")));
    progress.mark_cleared("vault.ron").unwrap();
    let said = progress.save().unwrap_err().to_string();
    assert!(said.contains("progress.txt: it is a named pipe"), "{said}");
    assert!(
        !dir.0.join("progress.damaged.txt").exists(),
        "no link to the FIFO"
    );
}

#[test]
fn a_data_folder_that_is_a_dangling_link_says_so() {
    let dir = TempDir::new("dangling-data");
    let link = dir.0.join("data");
    std::os::unix::fs::symlink(dir.0.join("nowhere"), &link).unwrap();
    let mut best = BestTimes::load(&Store::at(&link)).0;
    best.record("vault.ron", 900).unwrap();
    let said = best.save().unwrap_err().to_string();
    assert!(
        said.contains("is a symbolic link to") && said.contains("does not exist"),
        "{said}"
    );
}
