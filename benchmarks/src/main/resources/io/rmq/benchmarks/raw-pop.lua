--[[
  The benchmark's raw baseline: moves up to a batch of due members of one slot's store queue into its
  prepare queue, batch-wide (one ZRANGEBYSCORE, one ZREMRANGEBYRANK, one ZADD), and returns them. No merge
  rules, retry counts, pause flags or key-type checks: what a bare client of the same layout does, in its
  fastest form (the due members are the queue's first ones, so they are removed by rank: cheaper than a ZREM
  by name, and what pop.lua does when no member is blocked).

  KEYS[1] store queue (sorted set: member = content, score = due time, ms)
  KEYS[2] prepare queue (sorted set: member = content, score = deadline, ms)

  ARGV[1] now, ms: members scored at most this are due
  ARGV[2] deadline, ms: the score of the popped members in the prepare queue
  ARGV[3] most members to move

  Returns: the members moved (an empty array when none is due)
]]
local store = KEYS[1]
local prepare = KEYS[2]
local now = ARGV[1]
local deadline = ARGV[2]
local limit = tonumber(ARGV[3])

local members = redis.call('ZRANGEBYSCORE', store, '-inf', now, 'LIMIT', 0, limit)
if #members > 0 then redis.call('ZREMRANGEBYRANK', store, 0, #members - 1) end
-- unpack() is bounded by Lua's stack: large batches go in chunks
local chunk = 1000
for first = 1, #members, chunk do
  local last = math.min(first + chunk - 1, #members)
  local scored = {}
  for i = first, last do
    scored[#scored + 1] = deadline
    scored[#scored + 1] = members[i]
  end
  redis.call('ZADD', prepare, unpack(scored))
end
return members
