//! Storage for clock (see `crate::server::clock`).
