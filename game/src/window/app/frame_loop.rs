//! The frame loop: set the game up, then each frame take input, hot reload, run the fixed
//! steps, draw, and time it, until the player quits or a scripted run's last frame.

use std::time::Duration;

use crate::window::platform::Instant;

use macroquad::prelude::{
    MouseButton, get_frame_time, get_keys_pressed, is_mouse_button_pressed,
    is_mouse_button_released, is_quit_requested, next_frame, prevent_quit, set_default_camera,
};

use super::app_error::AppError;
use super::app_state::App;
use super::audio::{AudioThread, Sounds};
use super::mode::Mode;
use super::render::Renderer;
use super::run_config::RunConfig;
use super::screens::HUD_BAR;
use super::script_report::ScriptReport;
use super::script_timing::PlayFrame;
use super::stepping::Stepped;
use crate::game_data::GameData;
use crate::window::debug::overlay::{FrameCost, Overlay};

/// The loop behind `app::run`.
pub(super) async fn game_loop(
    opts: RunConfig,
    audio_thread: AudioThread,
) -> Result<Option<ScriptReport>, AppError> {
    let mut app = open(&opts, audio_thread)?;
    // Closing the window asks first while there are unsaved edits.
    prevent_quit();
    let echo_keys = std::env::var_os(ECHO_KEYS).is_some();
    loop {
        let frame_started = Instant::now();
        puffin::GlobalProfiler::lock().new_frame();
        puffin::profile_scope!("frame");
        let last_frame = app.begin_frame();
        if app.take_input() {
            app.save_record();
            if let Err(e) = app.drawing.overlay.save_capture() {
                eprintln!("{e}");
            }
            if app.script.is_some() {
                // A scripted editor run ends when the editor is quit, with its report.
                return app.end_script().map(Some);
            }
            return Ok(None);
        }
        if app.level_file_saved() {
            app.level_file_changed();
        }
        app.finish_reload();
        app.update_and_draw(frame_started);
        crate::window::platform::end_of_frame(app.frames.frame);
        if last_frame {
            // A scripted run's report must not depend on how fast this machine parses: a
            // reload in flight is waited for and swapped in first.
            app.wait_for_reload();
            app.save_record();
            app.drawing
                .overlay
                .save_capture()
                .map_err(AppError::Profiler)?;
            return app.end_script().map(Some);
        }
        if echo_keys {
            let step = app.run.sim.as_ref().map(|sim| sim.state().step);
            echo_frame_keys(app.frames.frame, step);
        }
        next_frame().await;
    }
}

/// The environment variable that makes the game say on standard output, after each frame
/// that took key presses or mouse buttons, which it took (`keys 12: Down Enter`; a button as
/// `MouseLeft` when pressed, `MouseLeft-up` when let go; a request to close the window as
/// `Close`), and after its first frame that it
/// takes keys at all (`keys 1:`); each line ends with the step the game being played is at
/// (`keys 12: E step 40`). What a test that types into the window waits for instead of
/// sleeping: once the line is there, the frame has handled the keys.
pub const ECHO_KEYS: &str = "CRATE_ROOM_ECHO_KEYS";

/// Say which keys and buttons this frame took, and the game's `step` (see [`ECHO_KEYS`]).
fn echo_frame_keys(frame: u64, step: Option<u64>) {
    let mut keys: Vec<String> = get_keys_pressed()
        .into_iter()
        .map(|key| format!("{key:?}"))
        .collect();
    if is_quit_requested() {
        keys.push("Close".to_owned());
    }
    for button in [MouseButton::Left, MouseButton::Right, MouseButton::Middle] {
        if is_mouse_button_pressed(button) {
            keys.push(format!("Mouse{button:?}"));
        }
        if is_mouse_button_released(button) {
            keys.push(format!("Mouse{button:?}-up"));
        }
    }
    if keys.is_empty() && frame != 1 {
        return;
    }
    keys.sort();
    let mut line = format!("keys {frame}:");
    for key in keys {
        line.push(' ');
        line.push_str(&key);
    }
    if let Some(step) = step {
        line.push_str(&format!(" step {step}"));
    }
    line.push('\n');
    // A reader gone is the test's business; the game plays on.
    let _ = crate::tool_io::print_out(&line);
}

/// The game as `opts` start it, with its data, atlas, texture, profiler and sounds.
fn open(opts: &RunConfig, audio_thread: AudioThread) -> Result<App, AppError> {
    crate::window::platform::start_profiler_clock();
    let (GameData { dirs, atlas }, image) = GameData::load_with_image()?;
    // The editor saves levels there, and into the folder of the level it is started on; a
    // game killed mid-save leaves a temporary file behind.
    crate::fsutil::remove_stale_temporaries(&dirs.levels);
    let level = opts.edit.as_ref().map(|e| &e.path).or(opts.level.as_ref());
    if let Some(level) = level {
        crate::fsutil::remove_stale_temporaries(crate::fsutil::folder_of(level));
    }
    let renderer = Renderer::new(&image, &atlas)?;
    drop(image);
    let overlay = Overlay::new(
        opts.debug,
        opts.puffin_server.as_deref(),
        opts.save_profile.clone(),
    )
    .map_err(AppError::Profiler)?;
    let sounds = Sounds::load(&dirs.assets, opts.overrides.mute, audio_thread);
    let app = App::new(dirs, atlas, renderer, overlay, sounds, opts);
    let no_level = || AppError::Level(app.run.error.clone().unwrap_or_else(|| "no level".into()));
    if opts.edit.is_some() && app.edits.session.is_none() {
        // `--edit` on a file that is not a valid level: nothing to edit.
        return Err(no_level());
    }
    let on_level = app.mode.shows_level();
    if app.script.is_some() && on_level && app.run.sim.is_none() && app.edits.session.is_none() {
        return Err(no_level());
    }
    Ok(app)
}

impl App {
    /// Count the frame, measure draw calls when due and smooth the frame rate. Returns
    /// whether it is a scripted run's last frame.
    fn begin_frame(&mut self) -> bool {
        let frames = &mut self.frames;
        frames.frame += 1;
        let script = self.script.as_ref().map(|s| s.frames);
        // Scripted runs measure the world's draw calls on their last frames.
        let want_probe = script.map_or(frames.frame.is_multiple_of(30), |n| frames.frame + 3 == n);
        frames.probe.begin_frame(frames.frame, want_probe);
        let dt = get_frame_time();
        if dt > 0.0 {
            frames.fps = frames.fps * 0.95 + (1.0 / dt) * 0.05;
        }
        script.is_some_and(|n| frames.frame >= n)
    }

    /// Run the frame's steps and draw it, keeping the costs for the overlay and the report.
    fn update_and_draw(&mut self, frame_started: Instant) {
        let started = Instant::now();
        let Stepped {
            steps,
            stepping,
            comparing,
        } = self.update();
        let update = started.elapsed();
        let playing = self.run.sim.is_some()
            && matches!(
                self.mode,
                Mode::Playing { paused: false } | Mode::Playback { paused: false, .. }
            );
        let render_started = Instant::now();
        self.draw();
        let drawing = &mut self.drawing;
        drawing.overlay.record(FrameCost {
            steps,
            frame_ms: get_frame_time() * 1e3,
            playing,
            update_ms: update.as_secs_f32() * 1e3,
            step_ms: stepping.as_secs_f32() * 1e3,
            compare_ms: comparing.as_secs_f32() * 1e3,
            tracking: self
                .run
                .sim
                .as_ref()
                .is_some_and(|s| s.dirty_optimization()),
            render_ms: render_started.elapsed().as_secs_f32() * 1e3,
            world_draw_calls: self.frames.probe.world_draw_calls,
            world_quads: drawing.renderer.last_quads,
        });
        // The profiler window goes over everything, after the stats panel's figures are taken.
        drawing.overlay.draw_profiler(HUD_BAR + 12.0, drawing.hint);
        // Hand the batched draws to OpenGL now (setting the camera flushes them), so that the
        // render time includes submitting them; `next_frame` is left with the buffer swap.
        set_default_camera();
        if let Some(brightness) = self.script.as_mut().and_then(|s| s.brightness.as_mut()) {
            brightness.push(super::screenshot::mean_brightness());
        }
        let render = render_started.elapsed();
        self.frames
            .times
            .record(frame_started.elapsed(), update, render);
        if let Some(sim) = self.run.sim.as_ref().filter(|_| playing) {
            self.frames.times.record_play(PlayFrame {
                tracking: sim.dirty_optimization(),
                interval: Duration::from_secs_f32(get_frame_time().max(0.0)),
                cpu: frame_started.elapsed(),
                update,
                step: (steps > 0).then(|| stepping / steps),
            });
        }
        if steps > 0 {
            self.frames.times.record_steps(
                stepping / steps,
                update.saturating_sub(stepping + comparing),
            );
        }
    }

    /// End a scripted run: its screenshot and report.
    fn end_script(&mut self) -> Result<ScriptReport, AppError> {
        let screenshot = self.script.as_ref().and_then(|s| s.screenshot.clone());
        self.finish_script(screenshot.as_deref())
    }
}
