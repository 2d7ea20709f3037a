// The hooks loaded with `claude --plugin-dir <repo>` (how a developer runs the plugin from a clone).
import { lifecycleSuite } from '../support/lifecycle.ts';

lifecycleSuite('plugin-dir', { contracts: true });
