import { App } from 'cdktf';
import { EXAMPLE_STACK_NAME, ExampleResellerStack } from './stack';

// `cdktf synth` / `cdktf deploy` run this (see cdktf.json at the repository root).
const app = new App();
new ExampleResellerStack(app, EXAMPLE_STACK_NAME);
app.synth();
