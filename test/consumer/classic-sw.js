// A classic worker that pulls in the ready-made worker, as an app without a bundler would.
importScripts('/pushbridge-sw.js');
