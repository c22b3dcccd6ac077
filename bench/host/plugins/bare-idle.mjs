// Baseline for idle RSS: a Node process that does nothing but stay alive.
setInterval(() => {}, 60_000);
