// commander requires node:child_process at load time only to run external
// executable subcommands, which msgctl never defines. Loading it eagerly pulls
// in net/dgram internals on every start; this shim defers it to first use.
let real;
module.exports = new Proxy({}, {
  get(_target, key) {
    real ??= require('node:child_process');
    return real[key];
  },
});
