//! Storage for proposals (see `crate::server::proposals`).
