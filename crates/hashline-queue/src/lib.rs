//! The preview/resolve queue of structural rewrites, persisted in the session state.
