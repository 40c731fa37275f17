--[[
  expire: the periodic cleanup of a slot's expired messages. Removes up to `limit` members of the store
  queue whose expiry has passed (expiry sorted set: member -> expiresAt <= now), due or not, with their
  attempts, failure records and expiry entries, as pop.lua does before it pops (see lib/expiry.lua): it
  bounds what expired members of slots nobody pops, or of FIXED_TIME messages due after their expiry,
  keep in Redis. Members in the prepare queue are not touched (a copy being consumed does not expire).

  KEYS[1]  store queue     <prefix><topic>_<slot>
  KEYS[2]  prepare queue   prepare{<prefix><topic>_<slot>}
  KEYS[3]  attempts hash   attempts{<prefix><topic>_<slot>}
  KEYS[4]  failures hash   failures{<prefix><topic>_<slot>}
  KEYS[5]  dead queue      dead{<prefix><topic>_<slot>}
  KEYS[6]  expiry set      expiry{<prefix><topic>_<slot>}
  KEYS[7]  counters hash  counters{<prefix><topic>_<slot>}: cumulative counts for operators (optional);
                           fields expired (members expired) and dead (of those, kept in the dead queue)
  KEYS[8]  trace hash      trace{<prefix><topic>_<slot>}: the expired members' trace entries are removed
  KEYS[9..] optional keys, each recognised by its name before the hash tag (lib/optional_keys.lua), in any order:
           since{<prefix><topic>_<slot>} (priority aging: lib/aging.lua): the expired members' first send times
           are removed
           flowkey{<prefix><topic>_<slot>} with parkedkeys{<prefix><topic>_<slot>} (the consumer limits keys, see
           pop_flow.lua): members held back by their key expire in their parked sets too

  ARGV[1]  topic type      RANGE_MERGE | PRIORITY | FIXED_TIME
  ARGV[2]  limit           most members to expire (> 0)
  ARGV[3]  expired to dead 1: keep expired members in the dead queue with the failure "expired"; 0: drop them

  Returns  { expired, more }: members expired, and 1 when `limit` expired entries were found (more may
           have expired), else 0
]]
if redis.replicate_commands then redis.replicate_commands() end

local countersKey = KEYS[7]
local topicType   = ARGV[1]
local limit       = tonumber(ARGV[2])
local toDead      = ARGV[3] == '1'
-- #include lib/clock.lua: redisNow()
-- #include lib/call_all.lua: CHUNK and callAll(command, key, items)
-- #include lib/keys.lua: limits per key (keysOf, freePlaces, forgetKeys, parkedOf, ...)
-- #include lib/expiry.lua: expireMembers(keys, topicType, now, limit, toDead)
-- #include lib/optional_keys.lua: optionalKeys(first)
local optional = optionalKeys(9)

if countersKey then redis.call('HEXISTS', countersKey, '') end
local expired, more = expireMembers({ store = KEYS[1], prepare = KEYS[2], attempts = KEYS[3], failures = KEYS[4],
  dead = KEYS[5], expiry = KEYS[6], trace = KEYS[8], since = optional.since,
  parked = optional.flowkey and parkedOf({ keys = optional.flowkey, parked = optional.parkedkeys }) or nil },
  topicType, redisNow(), limit, toDead)
if countersKey and expired > 0 then
  redis.call('HINCRBY', countersKey, 'expired', expired)
  if toDead then redis.call('HINCRBY', countersKey, 'dead', expired) end
end
return { expired, more and 1 or 0 }
