//! A small entity-component-system whose frame cost follows what *changed*, not what *exists*.
//!
//! Entities are generational handles, components are any `Send + 'static` type stored in per-type
//! columns, and systems run in priority order over the entities that have all the components
//! they require. A system may *watch* component types; each update it reads, through a typed
//! [`Query`], its tracked entities or only those whose watched components changed since it last
//! ran. A room of ten thousand idle crates costs such a system nothing.
//!
//! Systems never call each other: they share the [`World`]'s components, resources (typed
//! singletons) and events (each [`EventReader`] sees each event once). No `unsafe`, no
//! archetypes, no parallel scheduler; `World` is `Send`. The contract (what a system sees, and
//! when) is `ecs/README.md`; how it is built, `ecs/DESIGN.md`.
//!
//! # Walkthrough
//! ```
//! use ecs::{SystemDesc, SystemEntities, World};
//!
//! #[derive(Debug, PartialEq)]
//! struct Health(u32);
//! struct Log(Vec<String>);
//!
//! let mut world = World::new();
//! world.insert_resource(Log(Vec::new()));
//! world.add_system(
//!     SystemDesc::new("health_logger").watches::<Health>(),
//!     |world: &mut World, entities: &SystemEntities| {
//!         let (mut changed, resources) = entities.changed::<&Health>(world).with_resources();
//!         while let Some((_, hp)) = changed.next() {
//!             resources.resource_mut::<Log>().0.push(format!("{}/10", hp.0));
//!         }
//!     },
//! );
//! let player = world.spawn((Health(10),));
//! world.update(); // new component: changed
//! world.update(); // nothing changed: the system is not called
//! world.get_mut::<Health>(player).unwrap().0 -= 2;
//! world.update();
//! assert_eq!(world.resource::<Log>().0, ["10/10", "8/10"]);
//!
//! world.despawn(player);
//! assert_eq!(world.get::<Health>(player), None, "stale handles reach nothing");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// Call `$m` with every tuple of the type parameters listed (each beside a lower-case name):
/// `()`, the last one, the last two, ..., all of them.
macro_rules! all_tuples {
    ($m:ident;) => { $m!(); };
    ($m:ident; $t:ident $v:ident $(, $ts:ident $vs:ident)*) => {
        all_tuples!($m; $($ts $vs),*);
        $m!($t $v $(, $ts $vs)*);
    };
}

#[cfg(doctest)] // the README's examples run as doctests
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

mod bundle;
mod column;
mod component;
mod delivery;
pub mod diagnostics;
mod entity;
mod entity_set;
mod event_reader;
mod events;
mod query;
mod schedule;
mod system;
mod update;
mod world;

pub use bundle::Bundle;
pub use column::{Column, Mut};
pub use component::{Component, ComponentId, MAX_COMPONENT_TYPES};
pub use entity::Entity;
pub use event_reader::EventReader;
pub use query::{Query, QueryData};
pub use system::{System, SystemDesc, SystemEntities, SystemId, SystemInfo};
pub use world::{NoSuchEntity, Resources, World};
