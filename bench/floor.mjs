// The floor a hook is measured against (DESIGN goal 3): Node running an empty ES module that reads
// all of its stdin. Nothing else.
for await (const _ of process.stdin) {
}
