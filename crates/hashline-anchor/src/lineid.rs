//! Line IDs of the LINE#ID dialect (seed 004).
