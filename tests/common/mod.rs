//! Inputs shared by the command-line tests.

/// A small valid experiment (checked valid by `bad_inputs::the_base_inputs_are_valid`).
pub const EXP: &str = r#"name = "cli"
[router]
ports = 5
vcs = 2
flit_width = 32
input_buffer_depth = 4
output_buffer_depth = 2
crossbar = "multiplexed"
scheduler = "round_robin"
[topology]
kind = "mesh"
k = 2
[physical]
link_mbps = 400
[workload]
load = 0.1
mix = [0, 100]
realtime = "none"
best_effort = "poisson"
message_flits = 4
[run]
cycles = 3000
"#;
