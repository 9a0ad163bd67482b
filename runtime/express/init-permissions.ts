/**
 * `initPermissions()`: the boot step of the express integration — `permissionsFromDefinitions` under the
 * name the express guide uses (one function, two names).
 */
export { permissionsFromDefinitions as initPermissions } from '../permissions/index.js';
