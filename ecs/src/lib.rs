//! A small entity-component-system whose frame cost follows what *changed*, not what *exists*.
//!
//! Entities are generational handles, components are any `'static` type stored in per-type
//! columns, and systems run in priority order over the entities that have all the components
//! they require. The headline feature is opt-in **change tracking**: a system may *watch*
//! component types, and each update it receives, beside every tracked entity, the *dirty* ones
//! whose watched components changed since it last ran. A room of ten thousand idle crates costs
//! such a system nothing.
//!
//! # Goals, in order
//! 1. **Correct change tracking.** A change is never lost and never seen twice by the same
//!    system: each watched component has one change log, and each system watching it reads
//!    from its own cursor, so a change made by a later system reaches an earlier one on the next
//!    update, and one made by an earlier system reaches a later one in the same update.
//!    Disabled systems keep collecting (deduplicated).
//! 2. **Cost proportional to change.** An update where nothing changed costs the same at a
//!    thousand entities as at a million, and calls no system that only reacts to changes; marking a watched component changed is a few
//!    nanoseconds; writes to unwatched types cost nothing extra; a change is logged once however
//!    many systems watch it; a large batch of changes is handed out in memory (slot) order.
//! 3. **No way to misuse a stale handle.** Operations on a despawned entity's handle return
//!    `None`, `false` or an error, even after its slot is reused.
//! 4. **Small and plain.** No `unsafe`, no dependencies, no macros to learn.
//!
//! It is not a parallel scheduler, has no archetypes and no query language: systems read and
//! write [`Column`]s by entity. To read the components of the dirty entities,
//! [`SystemEntities::dirty_in`] walks a column in memory order when much of it changed.
//!
//! # How systems communicate
//! Systems never call each other. They communicate in exactly three ways, all through the
//! [`World`]: **components** (state on entities), **resources** (typed singletons such as input,
//! time or the camera) and **events** (typed messages; each [`EventReader`] sees each event
//! once). Anything that needs orchestration above that lives outside the world, in the game.
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
//!     SystemDesc::new("health_logger").requires::<Health>().watches::<Health>(),
//!     |world: &mut World, entities: &SystemEntities| {
//!         for &e in entities.dirty() {
//!             let hp = world.get::<Health>(e).unwrap().0;
//!             world.resource_mut::<Log>().0.push(format!("{hp}/10"));
//!         }
//!     },
//! );
//! let player = world.spawn((Health(10),));
//! world.update(); // new component: dirty
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

mod change_log;
mod column;
mod component;
mod entity;
mod entity_set;
mod events;
mod slot_sort;
mod system;
mod system_desc;
mod world;

pub use column::{Column, Mut, join_mut, join_values_mut};
pub use component::{Component, ComponentId, MAX_COMPONENT_TYPES};
pub use entity::Entity;
pub use events::{EventReader, Events};
pub use system::{MemoryUse, SystemEntities, SystemId, SystemInfo};
pub use system_desc::SystemDesc;
pub use world::bundle::Bundle;
pub use world::{Clock, DenseDelivery, NoSuchEntity, System, World};
