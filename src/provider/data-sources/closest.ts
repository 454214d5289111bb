/** The closest-names suggestion moved to the protocol (pure), where the core's plan-time checks use it too. */
export { closestNames, editDistance } from '../../protocol/closest';
