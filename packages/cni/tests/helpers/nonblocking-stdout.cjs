'use strict';
// A --require preload: creating process.stdout on a pipe makes the descriptor non-blocking (libuv),
// as a parent or sibling sharing the pipe could. The plugin must still deliver all of its answer.
void process.stdout;
