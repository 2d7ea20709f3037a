// The hooks installed with `node dist/cli.mjs install` into ~/.claude (settings.json, no plugin system).
import { lifecycleSuite } from '../support/lifecycle.ts';

lifecycleSuite('plain-install');
