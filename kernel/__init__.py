"""The lowest layer, which every app may use and which uses none of them: the one error
type (:mod:`kernel.errors`), operations (:mod:`kernel.ops`: metrics, logs, traces, health),
the wake-up transport (:mod:`kernel.wake`), the read-only admin base (:mod:`kernel.admin`) and
the embedded server as a child process for tests and tools (:mod:`kernel.devserver`)."""
