//! Campaign progress on disk: kept beside the best times, read without ever failing, saved
//! atomically with a damaged file moved aside.

use crate::common;

use common::TempDir;
use game::player_data::Store;
use game::player_data::progress::Progress;

#[test]
fn a_damaged_line_costs_only_itself_and_is_moved_aside_at_the_next_save() {
    let dir = TempDir::new("progress-damaged");
    let file = dir.0.join("progress.txt");
    std::fs::write(
        &file,
        "# progress\n\"first_swing.ron\"\nnot quoted.ron\n\"iron_bands.ron\"  # cleared\n\"x.ron\" junk\n",
    )
    .unwrap();
    let (mut progress, problem) = Progress::load(&Store::at(&dir.0));
    let problem = problem.expect("the bad lines are reported").to_string();
    assert!(
        problem.contains("progress.txt:3:") && problem.contains("skipped 2"),
        "{problem}"
    );
    assert!(progress.is_cleared("first_swing.ron") && progress.is_cleared("iron_bands.ron"));
    assert!(!progress.is_cleared("x.ron"));
    // Loading never writes.
    assert!(std::fs::read_to_string(&file).unwrap().contains("junk"));
    assert!(progress.mark_cleared("pocket_change.ron").unwrap());
    progress.save().expect("saves");
    let damaged = std::fs::read_to_string(dir.0.join("progress.damaged.txt")).unwrap();
    assert!(damaged.contains("junk"), "the damaged file is kept aside");
    let (again, problem) = Progress::load(&Store::at(&dir.0));
    assert!(problem.is_none(), "{problem:?}");
    let cleared: Vec<&str> = again.cleared().collect();
    assert_eq!(
        cleared,
        ["first_swing.ron", "iron_bands.ron", "pocket_change.ron"]
    );
}

#[test]
fn an_unwritable_folder_is_an_error_that_names_it_and_progress_keeps_working() {
    let dir = TempDir::new("progress-unwritable");
    // A file where the folder should be: nothing can be created inside it.
    let blocked = dir.0.join("blocked");
    std::fs::write(&blocked, "a file").unwrap();
    let (mut progress, _) = Progress::load(&Store::at(blocked.join("data")));
    assert!(progress.mark_cleared("first_swing.ron").unwrap());
    let err = progress
        .save()
        .expect_err("cannot create the folder")
        .to_string();
    assert!(
        err.contains("cannot save") && err.contains("blocked"),
        "{err}"
    );
    assert!(progress.is_cleared("first_swing.ron"));
}

#[test]
fn an_oversized_or_unreadable_file_gives_empty_progress_and_one_error() {
    let dir = TempDir::new("progress-big");
    std::fs::write(dir.0.join("progress.txt"), vec![b'#'; 100 * 1024]).unwrap();
    let (progress, problem) = Progress::load(&Store::at(&dir.0));
    assert!(problem.unwrap().to_string().contains("was not read"));
    assert_eq!(progress.cleared().count(), 0);
    std::fs::remove_file(dir.0.join("progress.txt")).unwrap();
    std::fs::create_dir(dir.0.join("progress.txt")).unwrap();
    let (_, problem) = Progress::load(&Store::at(&dir.0));
    assert!(problem.unwrap().to_string().contains("cannot read"));
}
