// Jest globalTeardown: removes the run's temporary HOME (see isolated-home.js).
module.exports = require('./isolated-home').teardown;
