// The plugin inside the single executable (dist/sea/calico-ipam.cjs): scripts/sea-loader.cjs reads
// stdin first, to choose the code cache of the datastore the config names, and then calls
// `pluginMain` with it (design/cni.md, "Start-up cost").
export { pluginMain } from './plugin-main.js';
