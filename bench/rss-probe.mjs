// Peak-RSS fallback when GNU time is missing: loaded with `node --import`, it writes
// process.resourceUsage().maxRSS (KB) to $CTXL_BENCH_RSS_FILE when the process exits (also on
// process.exit()). It never touches stdout or stderr, so the hook's answer is unchanged.
import { writeFileSync } from 'node:fs';

const out = process.env.CTXL_BENCH_RSS_FILE;
if (out !== undefined && out !== '') {
  process.on('exit', () => {
    try {
      writeFileSync(out, String(process.resourceUsage().maxRSS));
    } catch {
      // Best effort: a missing number shows up as a bench error, not as a hook failure.
    }
  });
}
