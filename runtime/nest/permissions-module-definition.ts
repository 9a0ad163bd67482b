/**
 * The configurable-module definition behind `PermissionsModule.forRoot()` and `forRootAsync()`.
 */
import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { PermissionsModuleOptions } from './permissions-module-options.js';

/**
 * The injection token of the resolved module options (also for `forRootAsync`).
 *
 * @example
 * ```ts
 * constructor(@Inject(PERMISSIONS_MODULE_OPTIONS) private readonly options: PermissionsModuleOptions) {}
 * ```
 */
export const PERMISSIONS_MODULE_OPTIONS = 'PERMISSIONS_MODULE_OPTIONS';

/**
 * The generated base class of `PermissionsModule`, with `forRoot` and `forRootAsync`.
 *
 * @example
 * ```ts
 * export class PermissionsModule extends ConfigurablePermissionsModule {}
 * ```
 */
export const { ConfigurableModuleClass: ConfigurablePermissionsModule } = new ConfigurableModuleBuilder<PermissionsModuleOptions>({
  optionsInjectionToken: PERMISSIONS_MODULE_OPTIONS,
})
  .setClassMethodName('forRoot')
  // One permissions engine serves the whole application, so the module is always global.
  .setExtras({}, (definition) => ({ ...definition, global: true }))
  .build();
