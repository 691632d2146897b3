import { defineConfig } from 'tsup';
import { libraryBuild } from '../../tsup.shared.mts';

export default defineConfig(libraryBuild());
