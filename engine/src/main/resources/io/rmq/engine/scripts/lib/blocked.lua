-- Copies blocked behind an in-flight member. A pop that finds a member in the store queue while a copy of it is in
-- the prepare queue leaves it there (one member is never in two consumers' hands), and may then tell its consumer
-- that nothing else is waiting: that consumer sleeps until the copy in flight is settled. The slot's blocked hash
-- blocked{<prefix><topic>_<slot>} (member -> 1; a name built here from the store queue's) records each member a pop
-- left behind so, and the commit of its copy in flight publishes the wake notice that ends the sleep. A commit
-- thus learns which members have a blocked copy with one HLEN while the hash is empty, instead of reading the store
-- queue for every member it commits. A copy sent after the last pop needs no entry: its send wakes the consumers,
-- whose next pop records it. A pop that moves a member forgets its entry; an entry whose copy went another way
-- (cancelled, expired, purged) costs at most one needless wake notice.

local function blockedKeyOf(storeKey) return 'blocked{' .. storeKey .. '}' end

-- Records `members` (a list) as blocked.
local function noteBlocked(blockedKey, members)
  if #members == 0 then return end
  local pairs = {}
  for i = 1, #members do
    pairs[2 * i - 1] = members[i]
    pairs[2 * i] = '1'
  end
  callAll('HSET', blockedKey, pairs)
end

-- Forgets the entries of `members` (moving to the prepare queue, or settled); true when one of them had an entry.
-- One HLEN when the hash is empty.
local function takeBlocked(blockedKey, members)
  if #members == 0 or redis.call('HLEN', blockedKey) == 0 then return false end
  return callAll('HDEL', blockedKey, members) > 0
end
