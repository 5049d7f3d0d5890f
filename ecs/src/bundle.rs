//! Bundles: groups of components that [`World::spawn`] inserts together.

use crate::component::{Component, ComponentId};
use crate::{Entity, World};

/// A group of components inserted together by [`World::spawn`]: `()` and tuples of up to eight
/// distinct component types.
///
/// Inserting as a bundle updates system membership once, after all components are in place.
///
/// ```
/// # let mut w = ecs::World::new();
/// let e = w.spawn((1u8, "name")); assert_eq!(w.get::<&str>(e), Some(&"name"));
/// ```
pub trait Bundle: 'static + Send {
    /// Register every component type, pushing their ids in tuple order.
    #[doc(hidden)]
    fn register(world: &mut World, ids: &mut Vec<ComponentId>);

    /// Insert every component into `world` for `entity`; `ids` is what [`Bundle::register`]
    /// returned.
    #[doc(hidden)]
    fn insert_into(self, world: &mut World, entity: Entity, ids: &[ComponentId]);
}

macro_rules! tuple_bundle {
    ($($name:ident),*) => {
        impl<$($name: Component),*> Bundle for ($($name,)*) {
            #[allow(unused_variables)]
            fn register(world: &mut World, ids: &mut Vec<ComponentId>) {
                $(ids.push(world.register::<$name>());)*
            }

            #[allow(non_snake_case, unused_variables, unused_mut)]
            fn insert_into(self, world: &mut World, entity: Entity, ids: &[ComponentId]) {
                let ($($name,)*) = self;
                let mut ids = ids.iter().copied();
                $(world.insert_raw(entity, ids.next().expect("one id per component"), $name);)*
            }
        }
    };
}

tuple_bundle!();
tuple_bundle!(A);
tuple_bundle!(A, B);
tuple_bundle!(A, B, C);
tuple_bundle!(A, B, C, D);
tuple_bundle!(A, B, C, D, E);
tuple_bundle!(A, B, C, D, E, F);
tuple_bundle!(A, B, C, D, E, F, G);
tuple_bundle!(A, B, C, D, E, F, G, H);
