//! Hit-stop, screen shake and the flash of a blast: the small pauses, camera jolts and bright
//! frames that make a hit land.
//!
//! Plain state, no window and no clock, so it is tested headless and a scripted run shakes the
//! same way every time. The window layer owns one [`Feel`], tells it what happened
//! ([`on_hit`](Feel::on_hit), [`on_break`](Feel::on_break)) and asks it two things each fixed
//! step: whether to hold the simulation back ([`freeze_steps_now`](Feel::freeze_steps_now)) and
//! how far to push the camera ([`offset`](Feel::offset)).
//!
//! Both are presentation only. Hit-stop *delays* simulation steps and never changes what they
//! compute, so state hashes, replays and best times (counted in simulation steps) are the same
//! with it on or off. Either effect can be switched off ([`FeelSettings`]) for players who find
//! them uncomfortable.
//!
//! ```
//! use game::feel::{Feel, FeelSettings};
//!
//! let mut feel = Feel::new(FeelSettings::default());
//! let mut steps_run = 0;
//! feel.on_hit(); // reported by the step that landed the hit
//! for _ in 0..10 {
//!     // Once per fixed step of the frame loop:
//!     let frozen = feel.freeze_steps_now();
//!     feel.tick();
//!     if !frozen {
//!         steps_run += 1; // sim.step(), then feed its hits and breaks to feel
//!     }
//!     let (_dx, _dy) = feel.offset(); // add to the camera before drawing
//! }
//! assert_eq!(steps_run, 10 - Feel::HIT.freeze_steps);
//! assert_eq!(feel.offset(), (0.0, 0.0));
//! ```

/// Which effects are on. All default to on; each can be switched off for accessibility.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeelSettings {
    /// Camera shake on hits and breaks.
    pub shake: bool,
    /// Brief pause of the simulation on hits and breaks.
    pub hit_stop: bool,
    /// A blast's flash of the screen (the settings' "reduce flashing" switches it off).
    pub flash: bool,
}

impl Default for FeelSettings {
    fn default() -> Self {
        Self {
            shake: true,
            hit_stop: true,
            flash: true,
        }
    }
}

/// How hard one kind of event kicks: shake size and length, and hit-stop length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Kick {
    /// Shake amplitude in world pixels at the start; it falls linearly to zero.
    pub shake_px: f32,
    /// Steps the shake lasts (1/60 s each).
    pub shake_steps: u32,
    /// Simulation steps held back.
    pub freeze_steps: u32,
}

/// Hit-stop and screen-shake state, advanced once per fixed step.
///
/// Overlapping events take the stronger effect, never the sum: a break during a hit's shake
/// shakes like a break, and ten hits in a row freeze no longer than one.
#[derive(Clone, Debug)]
pub struct Feel {
    settings: FeelSettings,
    freeze_left: u32,
    /// Amplitude of the shake that started `shake_total - shake_left` steps ago.
    shake_px: f32,
    shake_left: u32,
    shake_total: u32,
    /// Strength (0 to 1) of the flash that started `FLASH_STEPS - flash_left` steps ago.
    flash: f32,
    flash_left: u32,
    /// Steps since the last flash started (saturating).
    since_flash: u32,
    /// Steps ticked so far; the only input of the shake's direction.
    ticks: u32,
    /// Index into [`DIRECTIONS`] of the current push.
    direction: usize,
}

/// Eight unit directions, a compass rose. `sqrt(1/2)` for the diagonals.
const DIRECTIONS: [(f32, f32); 8] = {
    const D: f32 = std::f32::consts::FRAC_1_SQRT_2;
    [
        (1.0, 0.0),
        (D, D),
        (0.0, 1.0),
        (-D, D),
        (-1.0, 0.0),
        (-D, -D),
        (0.0, -1.0),
        (D, -D),
    ]
};

impl Feel {
    /// A sword hit that does not break the crate: a nudge.
    pub const HIT: Kick = Kick {
        shake_px: 2.0,
        shake_steps: 6,
        freeze_steps: 3,
    };

    /// A crate breaking: a bigger jolt and a longer pause.
    pub const BREAK: Kick = Kick {
        shake_px: 4.0,
        shake_steps: 12,
        freeze_steps: 5,
    };

    /// Distance in world pixels at which a blast stops shaking the screen: 20 tiles, a little
    /// more than a screen's width away.
    pub const BLAST_REACH_PX: f32 = 20.0 * 16.0;

    /// A keg blowing up `distance` world pixels from the player: at the player's feet an 8 px,
    /// 24-step shake and a 4-step hit-stop; the shake falls linearly with distance to nothing
    /// at [`BLAST_REACH_PX`](Self::BLAST_REACH_PX), and only blasts within 4 tiles freeze.
    ///
    /// ```
    /// use game::feel::Feel;
    ///
    /// assert_eq!(Feel::blast(0.0).shake_px, 8.0);
    /// assert_eq!(Feel::blast(Feel::BLAST_REACH_PX / 2.0).shake_px, 4.0);
    /// assert_eq!(Feel::blast(Feel::BLAST_REACH_PX * 2.0).shake_px, 0.0);
    /// assert!(Feel::blast(16.0).freeze_steps > 0 && Feel::blast(100.0).freeze_steps == 0);
    /// ```
    pub fn blast(distance: f32) -> Kick {
        let near = Self::blast_nearness(distance);
        Kick {
            shake_px: 8.0 * near,
            shake_steps: if near > 0.0 { 24 } else { 0 },
            freeze_steps: if distance < 4.0 * 16.0 { 4 } else { 0 },
        }
    }

    /// 1 at the player's feet, falling linearly to 0 at [`BLAST_REACH_PX`](Self::BLAST_REACH_PX).
    fn blast_nearness(distance: f32) -> f32 {
        (1.0 - distance.max(0.0) / Self::BLAST_REACH_PX).clamp(0.0, 1.0)
    }

    /// Steps a blast's flash takes to fade.
    pub const FLASH_STEPS: u32 = 8;

    /// Fewest steps between the starts of two flashes: 60 / 20 = 3 flashes in any second at
    /// most, the photosensitivity threshold (WCAG 2.3.1). A chain of kegs blows every 12
    /// steps; the blasts in between shake but do not flash.
    pub const FLASH_GAP_STEPS: u32 = 20;

    /// React to a keg blowing up `distance` world pixels from the player: [`Feel::blast`], and
    /// a flash of the screen as strong as the shake (half-white at the player's feet), unless
    /// a flash started less than [`FLASH_GAP_STEPS`](Self::FLASH_GAP_STEPS) ago or flashing is
    /// switched off ([`FeelSettings::flash`]).
    pub fn on_blast(&mut self, distance: f32) {
        self.kick(Self::blast(distance));
        let strength = Self::blast_nearness(distance);
        if self.settings.flash
            && strength > 0.0
            && self.since_flash >= Self::FLASH_GAP_STEPS
            && strength >= self.flash_alpha() * 2.0
        {
            self.flash = strength;
            self.flash_left = Self::FLASH_STEPS;
            self.since_flash = 0;
        }
    }

    /// How strongly to whiten the screen now: 0 to 0.5, exactly 0 when no flash is fading.
    pub fn flash_alpha(&self) -> f32 {
        if self.flash_left == 0 {
            return 0.0;
        }
        0.5 * self.flash * self.flash_left as f32 / Self::FLASH_STEPS as f32
    }

    /// Create a calm state with `settings`.
    pub fn new(settings: FeelSettings) -> Self {
        Self {
            settings,
            freeze_left: 0,
            shake_px: 0.0,
            shake_left: 0,
            shake_total: 0,
            flash: 0.0,
            flash_left: 0,
            since_flash: u32::MAX,
            ticks: 0,
            direction: 0,
        }
    }

    /// The current settings.
    pub fn settings(&self) -> FeelSettings {
        self.settings
    }

    /// Change the settings; an effect switched off stops at once.
    pub fn set_settings(&mut self, settings: FeelSettings) {
        self.settings = settings;
        if !settings.shake {
            self.shake_left = 0;
        }
        if !settings.flash {
            self.flash_left = 0;
        }
        if !settings.hit_stop {
            self.freeze_left = 0;
        }
    }

    /// React to a hit that did not break anything: [`Feel::HIT`].
    pub fn on_hit(&mut self) {
        self.kick(Self::HIT);
    }

    /// React to something breaking: [`Feel::BREAK`].
    pub fn on_break(&mut self) {
        self.kick(Self::BREAK);
    }

    /// React to an event of any strength. Takes the stronger of the running and the new
    /// effect, separately for shake and hit-stop; effects that are switched off are ignored.
    pub fn kick(&mut self, kick: Kick) {
        if self.settings.hit_stop {
            self.freeze_left = self.freeze_left.max(kick.freeze_steps);
        }
        if self.settings.shake && kick.shake_steps > 0 && kick.shake_px >= self.envelope() {
            self.shake_px = kick.shake_px;
            self.shake_left = kick.shake_steps;
            self.shake_total = kick.shake_steps;
        }
    }

    /// Whether the simulation should skip this step (hit-stop). Ask before [`tick`](Self::tick).
    pub fn freeze_steps_now(&self) -> bool {
        self.freeze_left > 0
    }

    /// Advance one fixed step (1/60 s), frozen or not: hit-stop and shake both count down.
    pub fn tick(&mut self) {
        self.freeze_left = self.freeze_left.saturating_sub(1);
        self.shake_left = self.shake_left.saturating_sub(1);
        self.flash_left = self.flash_left.saturating_sub(1);
        self.since_flash = self.since_flash.saturating_add(1);
        self.ticks = self.ticks.wrapping_add(1);
        // Swing to a direction 135, 180 or 225 degrees from the last, picked by a hash of the
        // tick count: it reads as shaking back and forth rather than drifting one way.
        self.direction = (self.direction + 3 + (hash(self.ticks) % 3) as usize) % DIRECTIONS.len();
    }

    /// How far to move the camera now, in world pixels; exactly `(0.0, 0.0)` when calm.
    pub fn offset(&self) -> (f32, f32) {
        let size = self.envelope();
        if size == 0.0 {
            return (0.0, 0.0);
        }
        let (x, y) = DIRECTIONS[self.direction];
        (x * size, y * size)
    }

    /// Shake amplitude now: the start amplitude falling linearly, 0 once the shake is over.
    fn envelope(&self) -> f32 {
        if self.shake_left == 0 || !self.settings.shake {
            return 0.0;
        }
        // Both counts are at most a few hundred steps, exact in f32.
        self.shake_px * self.shake_left as f32 / self.shake_total as f32
    }
}

/// A small integer mix (lowbias32), so shake directions look random but never depend on
/// anything except the number of steps ticked.
fn hash(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^ (x >> 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn magnitude((x, y): (f32, f32)) -> f32 {
        x.hypot(y)
    }

    /// Offset and freeze flag at each of `steps` ticks, read before each tick.
    fn run(feel: &mut Feel, steps: usize) -> Vec<((f32, f32), bool)> {
        (0..steps)
            .map(|_| {
                let frozen = feel.freeze_steps_now();
                let out = (feel.offset(), frozen);
                feel.tick();
                out
            })
            .collect()
    }

    #[test]
    fn switched_off_effects_never_shake_or_freeze() {
        let mut feel = Feel::new(FeelSettings {
            shake: false,
            hit_stop: false,
            flash: true,
        });
        feel.on_hit();
        feel.on_break();
        feel.kick(Kick {
            shake_px: 100.0,
            shake_steps: 100,
            freeze_steps: 100,
        });
        for (offset, frozen) in run(&mut feel, 30) {
            assert_eq!(offset, (0.0, 0.0));
            assert!(!frozen);
        }
    }

    #[test]
    fn each_effect_switches_off_alone() {
        let mut shake_only = Feel::new(FeelSettings {
            shake: true,
            hit_stop: false,
            flash: true,
        });
        shake_only.on_break();
        assert!(!shake_only.freeze_steps_now());
        assert!(magnitude(shake_only.offset()) > 0.0);

        let mut stop_only = Feel::new(FeelSettings {
            shake: false,
            hit_stop: true,
            flash: true,
        });
        stop_only.on_break();
        assert!(stop_only.freeze_steps_now());
        assert_eq!(stop_only.offset(), (0.0, 0.0));
    }

    #[test]
    fn switching_off_mid_effect_stops_it_at_once() {
        let mut feel = Feel::new(FeelSettings::default());
        feel.on_break();
        feel.tick();
        feel.set_settings(FeelSettings {
            shake: false,
            hit_stop: false,
            flash: true,
        });
        assert_eq!(feel.offset(), (0.0, 0.0));
        assert!(!feel.freeze_steps_now());
        // Switching back on does not resurrect the old effect.
        feel.set_settings(FeelSettings::default());
        assert_eq!(feel.offset(), (0.0, 0.0));
        assert!(!feel.freeze_steps_now());
    }

    #[test]
    fn hit_stop_holds_exactly_its_steps() {
        for (kick, expected) in [(Feel::HIT, 3), (Feel::BREAK, 5)] {
            let mut feel = Feel::new(FeelSettings::default());
            feel.kick(kick);
            let frozen: Vec<bool> = run(&mut feel, 10).into_iter().map(|(_, f)| f).collect();
            let held = frozen.iter().take_while(|&&f| f).count();
            assert_eq!(held, expected);
            assert!(frozen[held..].iter().all(|&f| !f));
        }
    }

    #[test]
    fn shake_decays_to_exactly_zero_and_stays_there() {
        let mut feel = Feel::new(FeelSettings::default());
        feel.on_break();
        let trace = run(&mut feel, 40);
        let sizes: Vec<f32> = trace.iter().map(|&(o, _)| magnitude(o)).collect();
        assert!((sizes[0] - Feel::BREAK.shake_px).abs() < 1e-5);
        assert!(sizes.windows(2).all(|w| w[1] <= w[0] + 1e-5), "{sizes:?}");
        let steps = Feel::BREAK.shake_steps as usize;
        assert!(sizes[steps - 1] > 0.0);
        for &(offset, _) in &trace[steps..] {
            assert_eq!(offset, (0.0, 0.0));
        }
    }

    #[test]
    fn shake_swings_back_and_forth() {
        let mut feel = Feel::new(FeelSettings::default());
        feel.on_break();
        let offsets: Vec<(f32, f32)> = run(&mut feel, 11).into_iter().map(|(o, _)| o).collect();
        for w in offsets.windows(2) {
            let dot = w[0].0 * w[1].0 + w[0].1 * w[1].1;
            assert!(dot < 0.0, "consecutive pushes point apart: {w:?}");
        }
    }

    #[test]
    fn same_events_shake_the_same_way() {
        let script = |feel: &mut Feel| {
            let mut trace = Vec::new();
            for step in 0..60 {
                if step % 17 == 3 {
                    feel.on_hit();
                }
                if step == 30 {
                    feel.on_break();
                }
                trace.push((feel.offset(), feel.freeze_steps_now()));
                feel.tick();
            }
            trace
        };
        let a = script(&mut Feel::new(FeelSettings::default()));
        let b = script(&mut Feel::new(FeelSettings::default()));
        assert_eq!(a, b);
        assert!(a.iter().any(|&(o, _)| o != (0.0, 0.0)));
    }

    #[test]
    fn a_break_shakes_harder_longer_and_freezes_longer_than_a_hit() {
        let trace = |break_it: bool| {
            let mut feel = Feel::new(FeelSettings::default());
            if break_it {
                feel.on_break()
            } else {
                feel.on_hit()
            }
            run(&mut feel, 30)
        };
        let (hit, brk) = (trace(false), trace(true));
        let peak =
            |t: &[((f32, f32), bool)]| t.iter().map(|&(o, _)| magnitude(o)).fold(0.0, f32::max);
        let shaking =
            |t: &[((f32, f32), bool)]| t.iter().filter(|&&(o, _)| o != (0.0, 0.0)).count();
        let frozen = |t: &[((f32, f32), bool)]| t.iter().filter(|&&(_, f)| f).count();
        assert!(peak(&brk) > peak(&hit));
        assert!(shaking(&brk) > shaking(&hit));
        assert!(frozen(&brk) > frozen(&hit));
    }

    #[test]
    fn overlapping_events_take_the_max_not_the_sum() {
        let mut feel = Feel::new(FeelSettings::default());
        feel.on_break();
        feel.on_break();
        feel.on_hit();
        assert!((magnitude(feel.offset()) - Feel::BREAK.shake_px).abs() < 1e-5);
        let frozen = run(&mut feel, 30).iter().filter(|&&(_, f)| f).count();
        assert_eq!(frozen, Feel::BREAK.freeze_steps as usize);

        // A hit late in a break's shake, once the break has faded below it, restarts as a hit.
        let mut feel = Feel::new(FeelSettings::default());
        feel.on_break();
        for _ in 0..10 {
            feel.tick();
        }
        feel.on_hit();
        assert!((magnitude(feel.offset()) - Feel::HIT.shake_px).abs() < 1e-5);
    }

    #[test]
    fn a_blast_shakes_and_flashes_less_the_further_away_it_is_and_the_flash_fades_to_zero() {
        let first = |distance: f32| {
            let mut feel = Feel::new(FeelSettings::default());
            feel.on_blast(distance);
            (magnitude(feel.offset()), feel.flash_alpha())
        };
        let (near, mid, far) = (first(0.0), first(100.0), first(Feel::BLAST_REACH_PX));
        assert!(near.0 > mid.0 && mid.0 > 0.0 && far.0 == 0.0);
        assert!(near.1 > mid.1 && mid.1 > 0.0 && far.1 == 0.0);
        let mut feel = Feel::new(FeelSettings::default());
        feel.on_blast(0.0);
        for _ in 0..Feel::FLASH_STEPS {
            feel.tick();
        }
        assert_eq!(feel.flash_alpha(), 0.0);
    }

    #[test]
    fn shake_and_flash_are_switched_off_apart() {
        let mut feel = Feel::new(FeelSettings {
            shake: false,
            ..FeelSettings::default()
        });
        feel.on_blast(0.0);
        assert!(feel.flash_alpha() > 0.0);
        assert_eq!(feel.offset(), (0.0, 0.0));
        let mut feel = Feel::new(FeelSettings {
            flash: false,
            ..FeelSettings::default()
        });
        feel.on_blast(0.0);
        assert_eq!(feel.flash_alpha(), 0.0);
        assert!(magnitude(feel.offset()) > 0.0);
    }

    #[test]
    fn a_chain_of_blasts_every_12_steps_flashes_at_most_three_times_in_any_second() {
        let mut feel = Feel::new(FeelSettings::default());
        let mut starts = Vec::new();
        let mut last = 0.0;
        for step in 0..240 {
            if step % 12 == 0 {
                feel.on_blast(0.0);
            }
            let alpha = feel.flash_alpha();
            if alpha > last {
                starts.push(step);
            }
            last = alpha;
            feel.tick();
        }
        assert!(starts.len() >= 4, "the chain still flashes: {starts:?}");
        for (i, &s) in starts.iter().enumerate() {
            let in_second = starts[i..].iter().take_while(|&&t| t < s + 60).count();
            assert!(
                in_second <= 3,
                "{in_second} flashes from step {s}: {starts:?}"
            );
        }
    }
}
