//! Storage for social (see `crate::server::social`).
