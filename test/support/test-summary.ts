// Print one closing line over the unit and browser runs: "tests: N passed, N failed".
import { readFileSync } from 'node:fs';

const unit = JSON.parse(readFileSync('reports/unit.json', 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number };
const e2e = JSON.parse(readFileSync('reports/e2e.json', 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };
const passed = unit.numPassedTests + e2e.stats.expected;
const failed = unit.numFailedTests + e2e.stats.unexpected + e2e.stats.flaky;
const skipped = unit.numPendingTests + e2e.stats.skipped;
console.log(`unit: ${unit.numPassedTests} passed; browsers: ${e2e.stats.expected} passed`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
process.exitCode = failed > 0 ? 1 : 0;
