import type { AreaPlugin } from './context'
import { webhooksArea } from './webhooks/routes'
import { policiesArea } from './policies/plugin'
import { salesArea } from './sales/area'

/**
 * The areas of the reference service, each in its own folder with its own store.
 * An operation of common/operations.json that no area implements answers 501.
 */
export const AREAS: AreaPlugin[] = [webhooksArea, salesArea, policiesArea]
