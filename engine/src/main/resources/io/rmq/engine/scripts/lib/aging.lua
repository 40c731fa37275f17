-- Priority aging (PRIORITY topics; docs/flow-control.md "Priority aging"). A message of priority p first sent
-- at e (Redis ms) is stored with the static score s = p - pace * (e - epoch): ordering by s is ordering by the
-- rank p + pace * (t - e) at any time t, so the store queue stays a plain sorted set popped highest first. The
-- since hash keeps member -> e; a member without an entry reads as e = epoch (pending before aging was on).
-- Uses callAll (lib/call_all.lua, included before this piece by the script).

-- Ages the scores of one send call in place: scores[i] (the priority) becomes the aged score of members[i].
-- current: member -> its score in the store queue, false when not pending. A pending duplicate keeps its
-- first send time (one HMGET for the call's pending members); a new member is sent now, recorded with one
-- HSET (before the store queue is written: a since key of the wrong type fails the call first).
local function ageScores(sinceKey, pace, epoch, now, members, scores, current)
  local sentAt, pendingMembers, fresh = {}, {}, {}
  for _, member in ipairs(members) do
    if sentAt[member] == nil then
      if current[member] then
        sentAt[member] = epoch
        pendingMembers[#pendingMembers + 1] = member
      else
        sentAt[member] = now
        fresh[#fresh + 1] = member
        fresh[#fresh + 1] = now
      end
    end
  end
  if #pendingMembers > 0 then
    local read = callAll('HMGET', sinceKey, pendingMembers)
    for i, member in ipairs(pendingMembers) do sentAt[member] = tonumber(read[i]) or epoch end
  end
  for i, member in ipairs(members) do scores[i] = scores[i] - pace * (sentAt[member] - epoch) end
  if #fresh > 0 then callAll('HSET', sinceKey, fresh) end
end
