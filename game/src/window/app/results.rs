//! What a run leaves behind: its recording (`--record`, V on the cleared screen), the
//! room-cleared screen, the best time and the campaign's progress.

use super::app_state::App;
use super::audio::Sfx;
use super::flow::level_key;
use super::ghost;
use super::screens::{Cleared, Ending};
use crate::campaign::medals::Medal;
use crate::player_data::settings::GhostRun;
use crate::replay::{Recorder, ReplayError};
use crate::window::ui::ink;

impl App {
    /// A new run starts: record it (unless it is a replay being watched).
    pub fn start_recording(&mut self) {
        self.start_recording_from(None);
    }

    /// A new run starts: record it (unless it is a replay being watched), continuing `ready`
    /// when given: the recording hot reload began with the level's first step (or why it
    /// could not).
    pub fn start_recording_from(&mut self, ready: Option<Result<Recorder, ReplayError>>) {
        // A playtest of unsaved edits is not the file's level: a replay of it would name the
        // file, and verify against a different game.
        self.run.playtest_unsaved = self
            .edits
            .session
            .as_ref()
            .is_some_and(crate::window::editor::Session::is_modified);
        let recorded = !self.mode.is_playback() && !self.run.playtest_unsaved;
        let started = match ready {
            _ if !recorded => self.run.recording.start(None),
            Some(Ok(recorder)) => {
                self.run.recording.start_with(recorder);
                Ok(())
            }
            Some(Err(e)) => self.run.recording.start(None).and(Err(e.to_string())),
            None => self
                .run
                .recording
                .start(Some((&*self.run.path, self.config.seed))),
        };
        if let Err(e) = started {
            self.warn(format!("this run is not recorded: {e}"));
        }
    }

    /// `--record FILE`: write the current run's replay there.
    pub fn save_record(&mut self) {
        let Some(sim) = &self.run.sim else { return };
        if let Err(e) = self.run.recording.write(sim) {
            self.warn(e);
        }
    }

    /// The cleared screen's "save replay" (V).
    pub fn save_cleared_replay(&mut self) {
        if self.run.cleared.is_none() {
            return;
        }
        let saved = self
            .run
            .recording
            .save_cleared(&self.run.path, self.script.is_some());
        match saved {
            Ok(path) => {
                let shown = path.display().to_string();
                if let Some(c) = &mut self.run.cleared {
                    c.saved_replay = Some(shown.clone());
                }
                self.notify(format!("replay saved: {shown}"), ink::GOOD);
            }
            Err(e) => self.warn(format!("replay not saved: {e}")),
        }
    }

    /// The first frame a level is cleared: keep the time if it is a best, for the cleared screen.
    pub fn note_clear(&mut self) {
        let Some(sim) = &self.run.sim else { return };
        let state = sim.state();
        // Watching a replay sets no best time.
        let (Some(time), None, false) = (
            state.room_time(),
            &self.run.cleared,
            self.mode.is_playback(),
        ) else {
            return;
        };
        let can_save_replay = self.run.recording.on_clear(sim);
        let file = level_key(&self.run.path);
        let previous_best = self.records.best.best(&file);
        let award = self.run.par.and_then(|par| par.medal(time));
        let award_before = self
            .run
            .par
            .zip(previous_best)
            .and_then(|(par, best)| par.medal(best));
        // Medals compare best first (author first): a new one is better than the old (or the first).
        let rank = |a: Option<Medal>| a.map_or(usize::MAX, |m| m as usize);
        let new_award = award.is_some() && rank(award) < rank(award_before);
        let new_best = previous_best.is_none_or(|best| time < best);
        let counted = !self.run.playtest_unsaved;
        // The campaign's end is always celebrated, a best or not.
        let ending = self.records.campaign.levels().last() == Some(&file);
        self.juice
            .sounds
            .play(if counted && (new_award || new_best || ending) {
                Sfx::Sting
            } else {
                Sfx::Clear
            });
        self.run.cleared = Some(Cleared {
            time,
            previous_best,
            crates: state.crates_total - state.crates_left,
            coins: state.score,
            can_save_replay,
            saved_replay: None,
            par: self.run.par,
            unlocked: None,
            ending: None,
            in_campaign: self.records.campaign.position(&file).is_some(),
            award,
            new_award: counted && new_award,
            at_frame: self.frames.frame,
        });
        self.save_record();
        if self.run.playtest_unsaved {
            // Best times belong to the level file, not to edits of it not saved yet.
            return;
        }
        self.note_progress(&file);
        let best = &mut self.records.best;
        let (saved, new_best) = match best.record(&file, time) {
            Ok(outcome) if outcome.new_best => (best.save(), true),
            Ok(_) => (Ok(()), false),
            Err(e) => (Err(e), false),
        };
        if let Err(e) = saved {
            self.warn(format!("best time not saved: {e}"));
        }
        if new_best {
            self.keep_best_run();
        }
        self.note_ending(&file);
    }

    /// A new best time: keep its run for the ghost to race (`best/` in the data directory).
    fn keep_best_run(&mut self) {
        let data_dir = ghost::data_dir(self.script.is_some());
        let path = ghost::recording_path(
            GhostRun::Best,
            &self.run.path,
            &self.config.dirs.levels,
            data_dir.as_deref(),
        );
        if let Some(path) = path
            && let Err(e) = self.run.recording.save_best(&path)
        {
            self.warn(format!("best run not kept for the ghost: {e}"));
        }
    }

    /// A clear of the campaign's last level: the ending, with the medals and the total of the
    /// best times over the campaign.
    fn note_ending(&mut self, file: &str) {
        let campaign = &self.records.campaign;
        if campaign.levels().last().map(String::as_str) != Some(file) {
            return;
        }
        // As on the title: a level missing or not loading is none a player can clear.
        let playable: Vec<&String> = campaign
            .levels()
            .iter()
            .filter(|level| !self.records.unplayable.contains_key(level.as_str()))
            .collect();
        let mut ending = Ending {
            levels: playable.len(),
            ..Ending::default()
        };
        for level in playable {
            let Some(best) = self.records.best.best(level) else {
                continue;
            };
            ending.cleared += 1;
            ending.total += best;
            let path = self.config.dirs.levels.join(level);
            let par = crate::level::load(&path, &self.config.atlas.crate_skins())
                .ok()
                .and_then(|l| l.par);
            match par.and_then(|p| p.medal(best)) {
                Some(Medal::Author) => ending.author += 1,
                Some(Medal::Gold) => ending.gold += 1,
                Some(Medal::Silver) => ending.silver += 1,
                Some(Medal::Bronze) => ending.bronze += 1,
                None => {}
            }
        }
        ending.awards = campaign
            .levels()
            .iter()
            .map(|level| {
                let best = self.records.best.best(level)?;
                let path = self.config.dirs.levels.join(level);
                let par = crate::level::load(&path, &self.config.atlas.crate_skins())
                    .ok()?
                    .par?;
                par.medal(best)
            })
            .collect();
        if let Some(c) = &mut self.run.cleared {
            c.ending = Some(ending);
        }
    }

    /// A clear of `file`: keep it in the progress, and say which level it opened.
    fn note_progress(&mut self, file: &str) {
        let campaign = &self.records.campaign;
        let next = campaign
            .position(file)
            .and_then(|i| campaign.levels().get(i + 1))
            .cloned();
        let was_open = next.as_deref().is_some_and(|n| self.records.is_open(n));
        match self.records.progress.mark_cleared(file) {
            Ok(true) => {}
            Ok(false) => return,
            Err(e) => {
                self.warn(format!("progress not saved: {e}"));
                return;
            }
        }
        if let Err(e) = self.records.progress.save() {
            self.warn(format!("progress not saved: {e}"));
        }
        let levels = &self.config.dirs.levels;
        let next_exists = next
            .as_deref()
            .is_some_and(|n| crate::fsutil::is_file(&levels.join(n)));
        if let (Some(next), false, true) = (next, was_open, next_exists)
            && let Some(c) = &mut self.run.cleared
        {
            let path = levels.join(&next);
            let name = crate::level::load(&path, &self.config.atlas.crate_skins())
                .map_or_else(|_| next.trim_end_matches(".ron").to_owned(), |l| l.name);
            c.unlocked = Some(name);
        }
    }
}
