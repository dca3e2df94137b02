/** The zone properties DTO lives with the zone use cases; routes import it from here. */
export { formatModified, zoneProperties, type ZonePropertiesDto } from '../../../zones/properties.ts'
