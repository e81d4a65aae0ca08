//! Runs `examples/agent_session.rs` (a recorded agent session of 30+ calls) against the
//! binary this build made, and prints its transcript (`cargo test -- --nocapture` shows it).

#[path = "../examples/agent_session.rs"]
#[allow(dead_code)]
mod agent_session;

#[test]
fn the_recorded_agent_session_runs() {
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_hashline"));
    match agent_session::run(bin) {
        Ok(transcript) => print!("{transcript}"),
        Err(e) => panic!("the agent session failed: {e}"),
    }
}
