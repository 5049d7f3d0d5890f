//! Building the [`App`] a run starts with: the records, the level loader, and the first screen.

use std::collections::BTreeMap;
use std::path::PathBuf;

use ecs::EventReader;

use super::app_state::{
    App, Config, Devices, Drawing, Edits, Frames, HotReload, Juice, Records, Run,
};
use super::audio::{Cues, Sounds};
use super::mode::Mode;
use super::notices::Notices;
use super::playback::Playback;
use super::render::Renderer;
use super::run_capture::RunCapture;
use super::run_config::{RunConfig, Script};
use super::screens::HUD_BAR;
use crate::atlas::AtlasData;
use crate::campaign::Campaign;
use crate::feel::{Feel, FeelSettings};
use crate::input::InputSource;
use crate::paths::DataDirs;
use crate::player_data::progress::Progress;
use crate::player_data::settings::SettingsFile;
use crate::player_data::{self, BestTimes};
use crate::sim::FixedStep;
use crate::window::debug::overlay::Overlay;
use crate::window::editor::EventFeed;
use crate::window::platform::BackgroundLoader;
use crate::window::platform::Gamepads;
use crate::window::ui::{Hud, ink};

/// The player's records as a run opens them, with the problems met opening them.
struct Opened {
    best: BestTimes,
    progress: Progress,
    settings: SettingsFile,
    problems: Problems,
}

/// What went wrong opening the records and the campaign.
struct Problems {
    best: Option<String>,
    progress: Option<String>,
    settings: Option<String>,
    campaign: Option<String>,
}

impl Opened {
    /// Open the records. A scripted run (tests, CI, benchmarks) keeps them only where it is
    /// told to, so it never writes into a player's data directory.
    fn open(opts: &RunConfig) -> Self {
        let in_memory = opts.frames.is_some() && player_data::env_data_dir().is_none();
        if !in_memory && let Ok(store) = player_data::Store::locate() {
            // A game killed mid-save leaves its temporary file; nothing else would remove it.
            crate::fsutil::remove_stale_temporaries(store.dir());
        }
        let (best, best_problem) = if in_memory {
            (BestTimes::in_memory(), None)
        } else {
            BestTimes::open()
        };
        let (progress, progress_problem) = if in_memory {
            (Progress::in_memory(), None)
        } else {
            Progress::open()
        };
        let (settings, settings_problem) = if in_memory {
            (SettingsFile::in_memory(opts.overrides), None)
        } else {
            SettingsFile::open(opts.overrides)
        };
        Self {
            best,
            progress,
            settings,
            problems: Problems {
                best: best_problem.map(|p| p.to_string()),
                progress: progress_problem,
                settings: settings_problem,
                campaign: None,
            },
        }
    }
}

impl App {
    /// The game as a run starts it: on the title, a level, or the editor, as `opts` ask.
    pub fn new(
        dirs: DataDirs,
        atlas: AtlasData,
        mut renderer: Renderer,
        overlay: Overlay,
        sounds: Sounds,
        opts: &RunConfig,
    ) -> Self {
        let (campaign, campaign_problem) = Campaign::load(&dirs.levels);
        let levels = campaign.listing(&dirs.levels, &dirs.level_files());
        renderer.top_inset = HUD_BAR;
        let mut opened = Opened::open(opts);
        let missing = campaign.missing(&dirs.level_files());
        opened.problems.campaign = campaign_problem.map(|p| p.to_string()).or_else(|| {
            // Named once, like the data files' problems; the levels after them stay open.
            (!missing.is_empty()).then(|| {
                let names: Vec<String> = missing
                    .iter()
                    .map(|m| crate::level::escape_for_display(m).into_owned())
                    .collect();
                let after = if names.len() == 1 {
                    "the level after it opens as if it were cleared"
                } else {
                    "the level after each opens as if it were cleared"
                };
                format!(
                    "{}: listed but missing from {}: {}; {after}",
                    crate::campaign::FILE_NAME,
                    crate::level::escape_for_display(&dirs.levels.display().to_string()),
                    names.join(", ")
                )
            })
        });
        // The title opens on the first level of the campaign until one is played.
        let default_level = levels
            .iter()
            .find(|p| crate::fsutil::is_file(p))
            .cloned()
            .unwrap_or_else(|| dirs.levels.join("crate_room.ron"));
        let (loader, loader_error) = match BackgroundLoader::new(atlas.clone()) {
            Ok(loader) => (Some(loader), None),
            Err(e) => (None, Some(e)),
        };
        let mut app = Self {
            mode: match &opts.input {
                InputSource::Replay(r) => Mode::Playback {
                    playback: Playback::new(r.steps()),
                    paused: false,
                },
                _ => Mode::Playing { paused: false },
            },
            script: Script::of(opts),
            config: Config {
                dirs,
                atlas,
                seed: opts.seed,
                input: opts.input.clone(),
                dirty_at_start: opts.dirty,
            },
            run: Run::new(default_level, opts.record.clone()),
            edits: Edits {
                session: None,
                discard_armed: None,
            },
            records: Records {
                levels,
                campaign,
                progress: opened.progress,
                best: opened.best,
                settings: opened.settings,
                unplayable: BTreeMap::new(),
            },
            reload: HotReload {
                watcher: None,
                watch_error: None,
                loader,
                reloads: 0,
            },
            drawing: Drawing::new(renderer, overlay),
            frames: Frames {
                fps: 60.0,
                ..Frames::default()
            },
            juice: Juice::new(sounds),
            devices: Devices {
                feed: EventFeed::subscribe(),
                pads: Gamepads::start(),
            },
        };
        app.report_problems(opened.problems);
        app.refresh_levels();
        app.apply_settings();
        app.open_first_screen(opts, loader_error);
        app
    }

    /// The screen a run starts on: the editor (`--edit`), a level, or the title on the level
    /// played last.
    fn open_first_screen(&mut self, opts: &RunConfig, loader_error: Option<std::io::Error>) {
        // The title opens on the level played last.
        if let Some(last) = &self.records.settings.current().last_level {
            let path = self.config.dirs.levels.join(last);
            if crate::fsutil::is_file(&path) {
                self.run.path = path;
            }
        }
        if let Some(e) = loader_error {
            self.notify(
                format!("cannot start the level loader thread ({e}): saves load in the frame"),
                ink::ERROR,
            );
        }
        match (&opts.level, &opts.edit) {
            (_, Some(start)) => self.open_editor(start),
            (Some(path), None) => self.open_level(path),
            (None, None) => self.open_title(),
        }
    }

    /// Say what went wrong opening the records and the campaign.
    fn report_problems(&mut self, problems: Problems) {
        if let Some(problem) = problems.best {
            self.warn(format!("best times: {problem}"));
        }
        // Without a data directory the best times said so already.
        let no_data_dir = player_data::Store::locate().is_err();
        if let Some(problem) = problems.progress.filter(|_| !no_data_dir) {
            self.warn(format!("progress: {problem}"));
        }
        if let Some(problem) = problems.campaign {
            self.warn(problem);
        }
        if let Some(problem) = problems.settings.filter(|_| !no_data_dir) {
            self.report_settings_problem(&problem);
        }
    }
}

impl Drawing {
    fn new(renderer: Renderer, overlay: Overlay) -> Self {
        Self {
            renderer,
            overlay,
            hud: Hud::default(),
            notices: Notices::default(),
            // The window opens windowed (macroquad's `Conf` default).
            fullscreen: false,
            hint: None,
            bar: Vec::new(),
        }
    }
}

impl Juice {
    fn new(sounds: Sounds) -> Self {
        Self {
            feel: Feel::new(FeelSettings::default()),
            sounds,
            cues: Cues::default(),
            hits: EventReader::default(),
            breaks: EventReader::default(),
            blasts: EventReader::default(),
            rings: Vec::new(),
        }
    }
}

impl Run {
    /// No game yet, on the level at `path`; runs are written to `record` (`--record`).
    fn new(path: PathBuf, record: Option<PathBuf>) -> Self {
        Self {
            path,
            sim: None,
            name: String::new(),
            par: None,
            hint: None,
            error: None,
            cleared: None,
            fixed: FixedStep::default(),
            playtest_unsaved: false,
            recording: RunCapture::new(record),
            ghost: None,
        }
    }
}
