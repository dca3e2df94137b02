/**
 * Every error the API can answer with, in one table (STYLE.md §4.3).
 *
 * `errorCode` and the message follow the spec first and the real UltraDNS API second
 * (`reference/error-codes.tsv`); `{0}`, `{1}` … are filled from the params of a {@link ZonalError}.
 * `shape: 'object'` marks the errors the real API sends as a single object instead of a list
 * (token errors and "report not ready"), which clients rely on to refresh or keep polling.
 * `docs/errors.md` lists the same rows; `test/errors/catalog.test.ts` keeps the two in step.
 */
export interface ErrorDef {
  readonly status: number
  readonly errorCode: number
  readonly message: string
  readonly shape?: 'list' | 'object'
}

export const catalog = {
  // Generic HTTP-level conditions.
  ROUTE_NOT_FOUND: { status: 404, errorCode: 404, message: 'Status Code 404' },
  METHOD_NOT_ALLOWED: { status: 405, errorCode: 240003, message: 'Invalid HTTP Method: This endpoint does not allow the specified method.' },
  INVALID_ACCEPT: { status: 406, errorCode: 240001, message: 'Invalid Accept header: must be application/json or application/xml' },
  UNSUPPORTED_CONTENT_TYPE: { status: 415, errorCode: 240002, message: 'Invalid Content-Type header: must be application/json or application/xml' },
  MALFORMED_BODY: { status: 400, errorCode: 53005, message: 'Invalid input: the request body is not valid {0}.' },
  BODY_TOO_LARGE: { status: 413, errorCode: 413, message: 'Request body is larger than the limit of {0} bytes.' },
  PAYLOAD_REQUIRED: { status: 400, errorCode: 59009, message: 'Payload in this request is required.' },
  INVALID_INPUT: { status: 400, errorCode: 53005, message: 'Invalid input: {0}' },
  FIELD_REQUIRED: { status: 400, errorCode: 55001, message: '{0} is required field.' },
  TOO_MANY_REQUESTS: { status: 429, errorCode: 340001, message: 'Too many requests.' },
  INTERNAL: { status: 500, errorCode: 9999, message: 'System Error. Request id: {0}' },
  DATA_NOT_FOUND: { status: 404, errorCode: 70002, message: 'Data not found.' },
  // Refused before any route reads the request (src/api/plugins/http-errors.ts); none repeats
  // what the client sent.
  HTTP_MALFORMED: { status: 400, errorCode: 53005, message: 'Invalid input: the request is not valid HTTP ({0}).' },
  HOST_HEADER_REQUIRED: { status: 400, errorCode: 70001, message: 'Header not found: Host (required in HTTP/1.1).' },
  URI_TOO_LONG: { status: 414, errorCode: 414, message: 'Request URI is too long: {0}.' },
  HEADERS_TOO_LARGE: { status: 431, errorCode: 431, message: 'Request header fields are larger than the limit of {0} bytes.' },
  REQUEST_TIMEOUT: { status: 408, errorCode: 408, message: 'The request was not received in time.' },
  EXPECTATION_FAILED: { status: 417, errorCode: 417, message: 'Expectation Failed: only "Expect: 100-continue" is supported.' },
  MULTIPART_TOO_MANY_PARTS: { status: 400, errorCode: 53005, message: 'Invalid input: a multipart request takes at most {0} {1} (a zone upload is a zone part and a file part).' },

  // Authentication (single-object bodies, as the real token endpoint answers).
  AUTH_TOKEN_INVALID: { status: 401, errorCode: 60001, message: 'Unauthorized. Token not found, expired or invalid.', shape: 'object' },
  AUTH_INVALID_GRANT: { status: 400, errorCode: 60001, message: 'invalid_grant:Invalid username & password combination.', shape: 'object' },
  AUTH_INVALID_REFRESH: { status: 400, errorCode: 60001, message: 'invalid_grant:refresh token not found, expired or invalid', shape: 'object' },
  AUTH_USER_INACTIVE: { status: 400, errorCode: 60002, message: 'User not Active', shape: 'object' },
  AUTH_INVALID_REQUEST: { status: 400, errorCode: 60006, message: 'invalid_request:{0}', shape: 'object' },
  AUTH_GRANT_TYPE_NOT_SUPPORTED: { status: 400, errorCode: 60005, message: 'grant_type not supported', shape: 'object' },
  AUTH_USERNAME_REQUIRED: { status: 400, errorCode: 60007, message: 'invalid_request:username parameter is required for grant_type=password', shape: 'object' },
  AUTH_PASSWORD_REQUIRED: { status: 400, errorCode: 60008, message: 'invalid_request:password parameter is required for grant_type=password', shape: 'object' },
  AUTH_REFRESH_TOKEN_REQUIRED: { status: 400, errorCode: 60009, message: 'invalid_request:refresh_token parameter is required for grant_type=refresh_token', shape: 'object' },
  AUTH_ADDRESS_THROTTLED: { status: 429, errorCode: 340001, message: 'Too many failed logins from this address; try again in {0} seconds.', shape: 'object' },

  // Accounts and permissions.
  ACCOUNT_NOT_FOUND: { status: 404, errorCode: 70002, message: 'Data not found.' },
  ACCOUNT_ALREADY_EXISTS: { status: 400, errorCode: 1892, message: 'Account \'{0}\' already exists.' },
  USER_NOT_FOUND: { status: 404, errorCode: 70002, message: 'Data not found.' },
  USER_ALREADY_EXISTS: { status: 400, errorCode: 4009, message: 'User \'{0}\' already exists.' },
  GROUP_NOT_FOUND: { status: 400, errorCode: 4003, message: 'Group does not exist: {0}' },
  PERMISSION_DENIED: { status: 403, errorCode: 403, message: 'You do not have permission to {0}.' },

  // Zones.
  ZONE_NOT_FOUND: { status: 404, errorCode: 1801, message: 'Zone does not exist in the system.' },
  ZONE_ALREADY_EXISTS: { status: 400, errorCode: 1802, message: 'Zone already exists in the system.' },
  ZONE_OVERLAPS_OTHER_ACCOUNT: { status: 400, errorCode: 1891, message: 'Zone {0} is inside or above a zone of another account.' },
  ZONE_NAME_INVALID: { status: 400, errorCode: 2507, message: 'Invalid zone name.' },

  // Tasks.
  TASK_NOT_FOUND: { status: 404, errorCode: 54001, message: 'Cannot find the task status for the input taskId' },
  TASK_NOT_COMPLETE: { status: 400, errorCode: 54004, message: 'Invalid task status; Task not yet completed' },

  // Zone operations.
  ZONE_TYPE_INVALID: { status: 400, errorCode: 53001, message: 'Invalid zone type' },
  ZONE_CREATE_TYPE_INVALID: { status: 400, errorCode: 53004, message: 'Invalid primary zone create type.' },
  ZONE_CREATE_TYPE_UNAVAILABLE: { status: 400, errorCode: 53004, message: 'Invalid primary zone create type. {0} is not available.' },
  PRIMARY_NAME_SERVER_INVALID: { status: 400, errorCode: 53002, message: 'Invalid primary name server: {0}' },
  ZONE_ORIGINAL_NOT_PRIMARY: { status: 400, errorCode: 53001, message: 'Invalid zone type: {0} is not a primary zone of the account.' },
  ZONE_HAS_ALIASES: { status: 400, errorCode: 1811, message: 'Zone has alias zones and cannot be deleted: {0}' },
  ZONE_IS_ALIAS: { status: 400, errorCode: 230000, message: 'Alias zone cannot be updated' },
  ZONE_SUSPENDED: { status: 400, errorCode: 1813, message: 'Zone is suspended and cannot be changed.' },
  ZONE_ALREADY_SUSPENDED: { status: 400, errorCode: 1814, message: 'Zone is already suspended.' },
  ZONE_NOT_SUSPENDED: { status: 400, errorCode: 1815, message: 'Zone is not suspended.' },
  ZONE_CONVERSION_INVALID: { status: 400, errorCode: 150014, message: 'Invalid conversion: Can not convert from \'{0}\' to \'{1}\'.' },
  ZONE_UNALIAS_SUSPENDED: { status: 400, errorCode: 59006, message: 'Can not unalias the suspended zone {0}' },
  ZONE_SECTION_NOT_ALLOWED: { status: 400, errorCode: 53005, message: 'Invalid input: {0} cannot be set for a {1} zone.' },
  ZONE_FILE_REQUIRED: { status: 400, errorCode: 70009, message: 'One file must be specified: json or file' },
  ZONE_FILE_INVALID: { status: 400, errorCode: 53005, message: 'Invalid input: {0}' },
  ZONE_TOO_MANY_RECORDS: { status: 400, errorCode: 53005, message: 'Invalid input: the zone would have {0} records, over the limit of {1} records per zone.' },
  ZONE_FILE_GENERATE_TOO_MANY: { status: 400, errorCode: 53005, message: 'Invalid input: the $GENERATE lines of the file would make {0} records, over the limit of {1} per file.' },
  RESTRICT_IP_REQUIRED: { status: 400, errorCode: 120001, message: 'One of (startIP,endIP), cidr or singleIP is required to be set in {0}[{1}]' },
  RESTRICT_CIDR_INVALID: { status: 400, errorCode: 120002, message: 'The contents of provided CIDR \'{0}\' are not valid in {1}[{2}].cidr' },
  RESTRICT_FAMILY_MISMATCH: { status: 400, errorCode: 120003, message: '\'{0}\' and \'{1}\' must belong to same IP family (IPv6 or IPv4) in {2}[{3}].(startIP,endIP)' },
  RESTRICT_RANGE_INVALID: { status: 400, errorCode: 120004, message: 'endIP \'{0}\' must be equal or grater than startIP \'{1}\' in {2}[{3}].(startIP,endIP)' },
  TSIG_KEY_NAME_INVALID: { status: 400, errorCode: 120006, message: 'The TSIG key name \'{0}\' is not valid in {1}.tsigKeyName' },
  TSIG_KEY_VALUE_INVALID: { status: 400, errorCode: 120007, message: 'The TSIG key value is not valid in {0}.tsigKeyValue' },
  TSIG_ALGORITHM_INVALID: { status: 400, errorCode: 53005, message: 'Invalid input: {0}.tsigAlgorithm must be one of {1}' },
  RESTRICT_IP_INVALID: { status: 400, errorCode: 120009, message: 'The IP \'{0}\' is not valid in {1}[{2}]' },
  NOTIFY_IP_INVALID: { status: 400, errorCode: 120010, message: 'The IP \'{0}\' is not valid in {1}[{2}].notifyAddress' },
  JSON_PATCH_INVALID: { status: 400, errorCode: 170003, message: 'Invalid JSON patch. {0}' },
  JSON_PATCH_FAILED: { status: 400, errorCode: 170001, message: 'Error in applying patch: {0}' },
  JSON_PATCH_UNSUPPORTED_OP: { status: 400, errorCode: 170004, message: 'Unsupported operation type: {0}' },

  // Zone snapshots (snapshot and restore).
  SNAPSHOT_NOT_FOUND: { status: 404, errorCode: 70002, message: 'Data not found.' },
  ZONE_NOT_ELIGIBLE_SNAPSHOT: { status: 400, errorCode: 370002, message: 'Zone {0} is not eligible for snapshot. {1}' },
  ZONE_NOT_ELIGIBLE_RESTORE: { status: 400, errorCode: 370002, message: 'Zone {0} is not eligible for restore. {1}' },

  // DNSSEC (src/zones/dnssec/): sign, unsign, re-sign, KSK rollover; the DNSSEC records of a signed zone.
  DNSSEC_ZONE_NOT_SIGNED: { status: 400, errorCode: 180001, message: 'Zone is not signed.' },
  DNSSEC_ZONE_ALREADY_SIGNED: { status: 400, errorCode: 180002, message: 'Zone is already signed.' },
  DNSSEC_ZONE_NOT_ELIGIBLE: { status: 400, errorCode: 53005, message: 'Invalid input: zone {0} cannot be signed: {1}' },
  DNSSEC_POLICY_INVALID: { status: 400, errorCode: 53005, message: 'Invalid input: dnssecPolicy.{0} {1}' },
  DNSSEC_RECORDS_READ_ONLY: { status: 400, errorCode: 53005, message: 'Invalid input: {0} records of a signed zone are written by the service when it signs the zone; they cannot be changed through the rrsets API.' },
  DNSSEC_ROLLOVER_IN_PROGRESS: { status: 400, errorCode: 53005, message: 'Invalid input: a key rollover of zone {0} is in progress ({1}).' },
  DNSSEC_POOL_NOT_ALLOWED: { status: 400, errorCode: 53005, message: 'Invalid input: {0} cannot be added to the signed zone {1} (advanced services do not currently allow for signed zones).' },

  // Zone list.
  ZONE_LIST_SORT_INVALID: { status: 400, errorCode: 70004, message: 'Invalid sort option: {0}' },

  // Zone export and tasks (background work).
  EXPORT_TOO_MANY_ZONES: { status: 400, errorCode: 53007, message: 'The provided number of zones ({0}) exceeds allowed limit ({1})' },
  TASK_RESULT_NOT_FOUND: { status: 404, errorCode: 70002, message: 'Data not found.' },
  TASK_SORT_INVALID: { status: 400, errorCode: 70004, message: 'Invalid sort option: {0}' },

  // Record sets (rrsets).
  RRSET_NOT_FOUND: { status: 404, errorCode: 70002, message: 'Data not found.' },
  RRSET_FIELDS_REQUIRED: { status: 400, errorCode: 70005, message: 'At least one field must be specified: rdata or profile' },
  RRSET_ALREADY_EXISTS: { status: 400, errorCode: 2111, message: 'Resource Record of type {0} with these attributes already exists in the system.' },
  RRSET_DUPLICATE_RDATA: { status: 400, errorCode: 450001, message: 'Resource Record with these attributes already exists in the system.' },
  RRSET_SORT_INVALID: { status: 400, errorCode: 70004, message: 'Invalid sort option: {0}' },
  ZONE_IS_SECONDARY: { status: 400, errorCode: 53001, message: 'Invalid zone type: {0} is a secondary zone; its records come from its primary name servers and cannot be changed.' },

  // Pool profiles (src/zone/pools): the detail in {0} names the field.
  POOL_PROFILE_INVALID: { status: 400, errorCode: 110004, message: 'Given profile information is not valid. {0}' },
  POOL_PROFILE_KEY_INVALID: { status: 400, errorCode: 70008, message: 'Invalid profile key: {0}' },
  POOL_PROFILE_RR_TYPE: { status: 400, errorCode: 70004, message: 'Profile is only applicable for {0} type resource record.' },
  POOL_ORDER_INVALID: { status: 400, errorCode: 70007, message: 'Given Profile Order is not valid. {0}' },
  POOL_PRIORITY_INVALID: { status: 400, errorCode: 110008, message: 'Invalid Priority : Priority value must be greater than 0 and less than 100000 ({0})' },
  POOL_FAILOVER_RDATA_REQUIRED: { status: 400, errorCode: 110001, message: 'rdata information in Failover record is required. ({0})' },
  POOL_MONITOR_REQUIRED: { status: 400, errorCode: 100003, message: 'Monitor information is required ({0})' },
  POOL_MONITOR_METHOD_REQUIRED: { status: 400, errorCode: 110002, message: 'Monitor Method is required. ({0})' },
  POOL_MONITOR_URL_REQUIRED: { status: 400, errorCode: 110003, message: 'Monitor Url is required. ({0})' },
  SB_POOL_RDATA_INFO_COUNT: { status: 400, errorCode: 110007, message: 'For a Site Backer Pool, one entry of profile rData info should always be provided for each entry in rdata. ({0})' },
  TC_POOL_RDATA_INFO_COUNT: { status: 400, errorCode: 110009, message: 'For a Traffic Controller Pool, one entry of profile rData info should always be provided for each entry in rdata. ({0})' },
  TC_POOL_WEIGHT_INVALID: { status: 400, errorCode: 110015, message: 'For a Traffic Controller Pool, weight must be an even integer between 2 to 100. ({0})' },
  SF_POOL_LIVE_RECORDS: { status: 400, errorCode: 100010, message: 'SF Pool can contain only 1 live record ({0})' },
  SF_POOL_BACKUP_RECORD_REQUIRED: { status: 400, errorCode: 100002, message: 'Backup Record information is required ({0})' },
  SF_POOL_REGION_FAILURE_SENSITIVITY_REQUIRED: { status: 400, errorCode: 100004, message: 'Region Failure Sensitivity is required ({0})' },
  SF_POOL_RECORD_STATE_INVALID: { status: 400, errorCode: 10005, message: 'Allowed Record states are FORCED_INACTIVE or NOT_FORCED ({0})' },
  SLB_POOL_RECORD_COUNT: { status: 400, errorCode: 90006, message: 'SLB pool should not have more than five primary records. ({0})' },
  SLB_POOL_RDATA_INFO_COUNT: { status: 400, errorCode: 90007, message: 'SLB pool needs to have the same number of rdataInfo as rdata. Use empty {} as a placeholder for default rdataInfo. ({0})' },
  DIR_POOL_RDATA_INFO_COUNT: { status: 400, errorCode: 90001, message: 'For a Directional Pool, one entry of profile rData info should always be provided for each entry in rdata. ({0})' },

  // Batch (POST /batch).
  BATCH_FAILED: { status: 400, errorCode: 110006, message: 'Error in batch operation. {0}' },
  BATCH_URI_MISSING: { status: 400, errorCode: 110018, message: 'The batch operation does not have a URI' },
  BATCH_METHOD_MISSING: { status: 400, errorCode: 110019, message: 'The batch operation does not have a Method' },
  BATCH_NULL: { status: 400, errorCode: 110020, message: 'The batch or batch operation is null' },
  BATCH_TOO_LARGE: { status: 400, errorCode: 110021, message: 'The batch of size {0} exceeds size limit ({1})' },
  BATCH_METHOD_NOT_ALLOWED: { status: 400, errorCode: 110022, message: 'Invalid request method provided; method \'{0}\' is not allowed.' },
  ZONE_NOT_SECONDARY: { status: 400, errorCode: 53001, message: 'Invalid zone type: {0} is not a secondary zone; only a secondary zone requests transfers from its primary name servers.' },
  ZONE_TRANSFER_FAILED: { status: 400, errorCode: 53002, message: 'Invalid primary name server: the zone transfer from {0} failed: {1}' },
  AUDIT_FILTER_INVALID: { status: 400, errorCode: 200004, message: 'Invalid filter \'{0}\': the filter is key:value pairs separated by ::.' },
  AUDIT_FILTER_KEY_UNKNOWN: { status: 400, errorCode: 200004, message: 'Invalid filter key \'{0}\'; known keys: {1}.' },
  AUDIT_DATE_RANGE_INVALID: { status: 400, errorCode: 55003, message: 'The date format is not valid. Expected date_range yyyyMMddHHmmss-yyyyMMddHHmmss (GMT) or 15m, 5h, 30d, 5w, 1month, but received: {0}' },
  AUDIT_DATE_RANGE_ORDER: { status: 400, errorCode: 55003, message: 'Invalid date_range {0}: the start is later than the end.' },
  AUDIT_LIMIT_INVALID: { status: 400, errorCode: 53005, message: 'Invalid input: limit \'{0}\' must be between 0 and 250 (1 to 250).' },
  AUDIT_X_USER_INVALID: { status: 400, errorCode: 410001, message: 'Invalid X-User \'{0}\': no user of that name is linked with an account you may read.' },

  // Report requests (POST /reports/dns_resolution/..., GET /requests/{id}).
  REPORT_NOT_FOUND: { status: 404, errorCode: 404, message: 'No report with the given ID was requested before.' },
  REPORT_FAILED: { status: 500, errorCode: 33000, message: 'The report could not be computed ({0}). Request it again.' },
  REPORT_ACCOUNT_REQUIRED: { status: 400, errorCode: 55001, message: 'Account name not provided.' },
  REPORT_ACCOUNT_DENIED: { status: 400, errorCode: 410003, message: 'You do not have access to the accountName.' },
  REPORT_CLASS_C_REQUIRED: { status: 400, errorCode: 55001, message: 'Client Class C is not provided.' },
  REPORT_ZONE_REQUIRED: { status: 400, errorCode: 55001, message: 'Zone name not provided.' },
  REPORT_DATE_INVALID: { status: 400, errorCode: 55003, message: 'Date provided is not in a valid format.' },
  REPORT_PACKET_ORDER: { status: 400, errorCode: 53005, message: 'packetEndDateTime is before packetStartDateTime.' },
  REPORT_DATE_ORDER: { status: 400, errorCode: 53005, message: 'reportEndDate is before reportStartDate.' },
  REPORT_DATE_ORDER_VOLUME: { status: 400, errorCode: 53005, message: 'endDate is before startDate.' },
  REPORT_DATE_FUTURE: { status: 400, errorCode: 53005, message: 'start or end date is a future date' },
  REPORT_OFFSET_NEGATIVE: { status: 400, errorCode: 53005, message: 'Offset value is a negative value.' },
  REPORT_HISTORY: { status: 400, errorCode: 53005, message: 'start date is older than {0}' },
  REPORT_SPAN: { status: 400, errorCode: 53005, message: 'The span between {0} and {1} is at most {2}.' },
  REPORT_LIMIT_INVALID: { status: 400, errorCode: 53005, message: 'Invalid input: limit \'{0}\' must be between 1 and {1}.' },
  REPORT_OFFSET_INVALID: { status: 400, errorCode: 53005, message: 'Invalid input: offset \'{0}\' must be a whole number.' },
  REPORT_BODY_INVALID: { status: 400, errorCode: 53005, message: 'Invalid input: {0}' },
  REPORT_SORT_INVALID: { status: 400, errorCode: 70004, message: 'Invalid sort option: {0}' },
  REPORT_DATES_BOTH: { status: 400, errorCode: 53005, message: 'Invalid input: give both startDate and endDate, or neither.' },
  REPORT_REPORT_TYPE: { status: 400, errorCode: 53005, message: 'Invalid input: reportType \'{0}\'; with advance=true the report type is ADVANCED_NXDOMAINS.' },
  REPORT_ZONE_WILDCARD: { status: 400, errorCode: 53005, message: 'Invalid input: zoneName \'{0}\': wildcards are not supported.' },
  HEALTH_CHECK_ZONE_TYPE: { status: 400, errorCode: 53001, message: 'Invalid zone type: health checks run on primary and alias zones; {0} is a secondary zone.' },
  HEALTH_CHECK_NOT_FOUND: { status: 404, errorCode: 70002, message: 'Data not found: the zone {0} has no health check report{1}.' },
  HEALTH_CHECK_VERSION_INVALID: { status: 400, errorCode: 53005, message: 'Invalid input: \'{0}\' is not a health check report version (YYYY-MM-DD-HH24:MI:SS.nnnZ, or latest).' },

  // Dangling DNS report (src/reports/dangling-dns.ts).
  DANGLING_ZONE_NOT_PRIMARY: { status: 400, errorCode: 53001, message: 'Invalid zone type: {0} is {1} zone; the dangling DNS report scans primary zones only.' },
  DANGLING_ZONE_TOO_LARGE: { status: 400, errorCode: 53005, message: 'Invalid input: zone {0} has {1} records; the dangling DNS report supports zones of at most 20,000 records.' },
  DANGLING_REPORT_NOT_FOUND: { status: 404, errorCode: 70002, message: 'Data not found: no dangling DNS report was requested for zone {0}.' },
  DANGLING_NO_RESOLVERS: { status: 500, errorCode: 33000, message: 'No recursive resolvers are configured (ZONAL_RESOLVERS); the dangling DNS scan cannot run.' },
  DANGLING_SCAN_FAILED: { status: 500, errorCode: 33000, message: 'The dangling DNS scan failed: {0}' },
  USAGE_ACCOUNT: { status: 400, errorCode: 410003, message: 'accountName is not provided; You do not have access to the accountName.' },
  USAGE_MONTH_INVALID: { status: 400, errorCode: 55003, message: 'Invalid input: month \'{0}\' is not a month name and year, such as March 2023.' },
  USAGE_MONTH_FUTURE: { status: 400, errorCode: 53005, message: 'Invalid input: month \'{0}\' is in the future.' },
  USAGE_MONTH_HISTORY: { status: 400, errorCode: 53005, message: 'Invalid input: month \'{0}\' is not within the last {1} months.' },

  // Traffic services: probes and the failover report (src/traffic/, src/reports/failover.ts).
  PROBE_POOL_NOT_FOUND: { status: 404, errorCode: 130014, message: 'Cannot find pool for the given owner.' },
  PROBE_POOL_NOT_SBTC: { status: 400, errorCode: 130014, message: 'Cannot find pool for the given owner: {0} is not a SiteBacker or Traffic Controller pool.' },
  PROBE_POOL_RECORD_NOT_FOUND: { status: 400, errorCode: 110013, message: 'Cannot find SB or TC pool record for the given owner. ({0})' },
  PROBE_NOT_FOUND: { status: 404, errorCode: 130002, message: 'The requested Pool Probe does not belong to the Pool for the specified zone and owner.' },
  PROBE_THRESHOLD: { status: 400, errorCode: 130010, message: 'Threshold can not be 0 or greater than number of agents.' },
  PROBE_DETAILS_INVALID: { status: 400, errorCode: 130012, message: 'Given probe details is not valid. ({0})' },
  PROBE_AGENT_INVALID: { status: 400, errorCode: 130016, message: 'Agent \'{0}\' is not valid for account \'{1}\'.' },
  PROBE_AGENTS_EMPTY: { status: 400, errorCode: 53006, message: 'Agents must not be empty.' },
  PROBE_EXPECTED_RESPONSE: { status: 400, errorCode: 130017, message: 'Please enter a valid HTTP Response code value between 2XX and 3XX. If you selected the Advanced Option, multiple HTTP codes must be valid and separated by a \'|\'.' },
  PROBE_TYPE_UNSUPPORTED: { status: 400, errorCode: 130012, message: 'Given probe details is not valid. ({0})' },
  FAILOVER_DATE_ORDER: { status: 400, errorCode: 53005, message: 'reportEndDateTime is before reportStartDateTime.' },

  // Web forwards and custom HTTP headers (src/zones/web-forwards.ts, src/zones/custom-headers.ts).
  WEB_FORWARD_NOT_FOUND: { status: 404, errorCode: 59002, message: 'Web forward with given guid does not exist under the zone.' },
  WEB_FORWARD_URL_INVALID: { status: 400, errorCode: 59008, message: 'The target URL is either incorrect or doesn\'t contains supported protocol. ({0} \'{1}\': {2})' },
  WEB_FORWARD_TYPE_INVALID: { status: 400, errorCode: 59005, message: 'Invalid redirect type: {0} ({1} is one of Framed, HTTP_301_REDIRECT, HTTP_302_REDIRECT, HTTP_303_REDIRECT, HTTP_307_REDIRECT)' },
  WEB_FORWARD_FIELD_INVALID: { status: 400, errorCode: 53005, message: 'Invalid input: {0}' },
  WEB_FORWARD_RULES_EMPTY: { status: 400, errorCode: 53006, message: 'records[{0}].rules must not be empty.' },
  WEB_FORWARD_REDIRECT_NOT_UNIQUE: { status: 400, errorCode: 59007, message: 'All the advanced web forwards should have unique destination of the redirect.' },
  WEB_FORWARD_ZONE_TYPE: { status: 400, errorCode: 53001, message: 'Invalid zone type: {0} is {1} zone; web forwards belong to primary zones.' },
  WEB_FORWARD_HOST_OUTSIDE_ZONE: { status: 400, errorCode: 53005, message: 'Invalid input: requestTo host {0} is not in the zone {1}' },
  WEB_FORWARD_HOST_DELEGATED: { status: 400, errorCode: 53005, message: 'Invalid input: requestTo host {0} is at or below the delegation {1} (NS records), whose names other name servers answer for.' },
  WEB_FORWARD_HOST_BELOW_DNAME: { status: 400, errorCode: 53005, message: 'Invalid input: requestTo host {0} is below the DNAME record of {1}.' },
  WEB_FORWARD_HOST_CONFLICT: { status: 400, errorCode: 53005, message: 'Invalid input: the host {0} already has {1} records that no web forward wrote; a web forward points the host\'s A and AAAA records at the forwarding server, so delete its {1} records first.' },
  WEB_FORWARD_RESTORE_CONFLICT: { status: 400, errorCode: 53005, message: 'The snapshot has CNAME records at {0}, whose web forwards point its A and AAAA records at the forwarding server; delete those web forwards first, then restore.' },
  WEB_FORWARD_ALREADY_EXISTS: { status: 400, errorCode: 53005, message: 'Invalid input: a web forward for {0} already exists in the zone {1}' },
  WEB_FORWARD_HEADER_UNKNOWN: { status: 400, errorCode: 53005, message: 'Invalid input: records[{0}].rules[{1}].header \'{2}\' is not a custom header of the account {3} (add it with POST /accounts/{3}/customheaders).' },
  WEB_FORWARD_LIMIT: { status: 400, errorCode: 53005, message: 'Invalid input: {0}; at most {1} are allowed.' },
  WEB_FORWARD_SORT_INVALID: { status: 400, errorCode: 70004, message: 'Invalid sort option: {0}' },
  RRSET_FORWARDED_HOST: { status: 400, errorCode: 53005, message: 'Invalid input: {0} is forwarded by {1} web forward(s); its A and AAAA records point at the forwarding server and are written by the service, so its {2} records cannot be changed through the rrsets API (delete its web forwards first).' },
  CUSTOM_HEADER_INVALID: { status: 400, errorCode: 53005, message: 'Invalid input: {0}' },
  CUSTOM_HEADER_EXISTS: { status: 400, errorCode: 53005, message: 'Invalid input: the custom header {0} already exists in the account {1}.' },
  CUSTOM_HEADER_NOT_FOUND: { status: 404, errorCode: 70001, message: 'Header not found.' }
} as const satisfies Record<string, ErrorDef>

export type ErrorName = keyof typeof catalog

/** Fill `{0}`, `{1}` … placeholders of a catalog message. */
export function formatMessage (template: string, params: readonly (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const value = params[Number(index)]
    return value === undefined ? whole : String(value)
  })
}

/**
 * A domain or API error with a catalog entry. Thrown anywhere below the API; the error handler
 * renders it in the wire shape of its entry.
 */
export class ZonalError extends Error {
  override readonly name = 'ZonalError'
  readonly code: ErrorName
  readonly def: ErrorDef
  readonly params: readonly (string | number)[]
  /** Several messages for one code (e.g. every problem of an uploaded zone file), one list item each. */
  details?: readonly string[]

  constructor (code: ErrorName, ...params: (string | number)[]) {
    const def: ErrorDef = catalog[code]
    super(formatMessage(def.message, params))
    this.code = code
    this.def = def
    this.params = params
  }

  /** One error carrying several items, each the catalog message filled with one detail. */
  static many (code: ErrorName, details: readonly string[]): ZonalError {
    const err = new ZonalError(code, details[0] ?? '')
    err.details = details.map(d => formatMessage(catalog[code].message, [d]))
    return err
  }

  get status (): number {
    return this.def.status
  }
}

/** True when `err` is a {@link ZonalError}, optionally of one catalog code. */
export function isZonalError (err: unknown, code?: ErrorName): err is ZonalError {
  return err instanceof ZonalError && (code === undefined || err.code === code)
}
